import { useState } from 'react';
import { Button, Card, Input, Modal, Space, Tabs, Tag } from 'antd';
import { ListTable } from '../../../components/ListTable';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX, Permission, ReviewStatus } from '@portal/contracts';
import { Access } from '../../../components/Access';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { listReviewQuery, type ReviewLab, type ReviewQuery } from '../api/listReview';
import { useReviewLab } from '../api/useOrganizationMutations';
import { formatDateTime } from '../../../lib/dates';

const TABS = [ReviewStatus.Pending, ReviewStatus.Approved, ReviewStatus.Rejected] as const;
const TAB_KEY = { 0: 'pending', 1: 'approved', 2: 'rejected' } as const;

export default function OrganizationReviewPage() {
  const { t } = useTranslation('review');
  const [query, setQuery] = useState<ReviewQuery>({ pageNum: 1, pageSize: 20, reviewStatus: 0 });
  const [rejecting, setRejecting] = useState<ReviewLab | null>(null);
  const [reason, setReason] = useState('');
  const list = useQuery(listReviewQuery(query));
  useBackClose(rejecting !== null, () => setRejecting(null));

  const review = useReviewLab({
    onSuccess: (_d, vars) => {
      notify.success(vars.approve ? t('approved') : t('rejected'));
      setRejecting(null);
    },
  });

  const columns: ColumnsType<ReviewLab> = [
    { title: t('col.name'), dataIndex: 'name' },
    { title: t('col.license'), dataIndex: 'licenseCode' },
    { title: t('col.representative'), dataIndex: 'representativeName' },
    { title: t('col.location'), render: (_, r) => [r.city, r.country].filter(Boolean).join(', ') },
    {
      title: t('col.region'),
      dataIndex: 'region',
      render: (v: string) => t(`register:region.${v}`, { defaultValue: v }),
    },
    { title: t('col.admin'), render: (_, r) => `${r.adminAccount} <${r.adminEmail}>` },
    {
      title: t('col.emailConfirmed'),
      dataIndex: 'emailConfirmed',
      render: (v: boolean) => (v ? <Tag color="green">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>),
    },
    { title: t('col.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
    ...(query.reviewStatus === ReviewStatus.Rejected ? [{ title: t('col.reason'), dataIndex: 'reviewReason' }] : []),
    ...(query.reviewStatus === ReviewStatus.Pending
      ? [
          {
            title: t('col.actions'),
            key: 'actions',
            render: (_: unknown, r: ReviewLab) => (
              <Access permission={Permission.OrganizationReview}>
                <Space>
                  <Button
                    type="primary"
                    size="small"
                    data-testid="review-approve"
                    loading={
                      review.isPending &&
                      review.variables.organizationCode === r.organizationCode &&
                      review.variables.approve
                    }
                    onClick={() => review.mutate({ organizationCode: r.organizationCode, approve: true })}
                  >
                    {t('approve')}
                  </Button>
                  <Button
                    danger
                    size="small"
                    data-testid="review-reject"
                    onClick={() => {
                      setReason('');
                      setRejecting(r);
                    }}
                  >
                    {t('reject')}
                  </Button>
                </Space>
              </Access>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card title={t('title')}>
      <Tabs
        activeKey={TAB_KEY[query.reviewStatus]}
        onChange={(key) => setQuery({ ...query, pageNum: 1, reviewStatus: TABS.find((s) => TAB_KEY[s] === key) ?? 0 })}
        items={TABS.map((s) => ({
          key: TAB_KEY[s],
          label: <span data-testid={`review-tab-${TAB_KEY[s]}`}>{t(`tab.${TAB_KEY[s]}`)}</span>,
        }))}
      />
      <ListTable<ReviewLab>
        rowKey="organizationCode"
        columns={columns}
        list={list}
        page={query}
        onPage={(page) => setQuery({ ...query, ...page })}
        rowAttributes={(r) => ({ 'data-testid': `review-row-${r.organizationCode}`, 'data-name': r.name })}
      />
      <Modal
        open={rejecting !== null}
        title={t('rejectTitle', { name: rejecting?.name ?? '' })}
        okText={t('reject')}
        okButtonProps={{
          danger: true,
          disabled: !reason.trim(),
          loading: review.isPending,
          'data-testid': 'review-reject-confirm',
        }}
        cancelText={t('common:cancel')}
        onCancel={() => setRejecting(null)}
        onOk={() =>
          rejecting &&
          review.mutate({ organizationCode: rejecting.organizationCode, approve: false, reason: reason.trim() })
        }
      >
        <Input.TextArea
          data-testid="review-reason"
          value={reason}
          maxLength={FIELD_MAX.reason}
          rows={4}
          placeholder={t('reasonPlaceholder')}
          onChange={(e) => setReason(e.target.value)}
        />
        {!reason.trim() ? <div className="muted">{t('reasonRequired')}</div> : null}
      </Modal>
    </Card>
  );
}
