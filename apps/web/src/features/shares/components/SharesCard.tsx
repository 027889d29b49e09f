import { useState } from 'react';
import { Button, Card, Space, Table, Tag, Typography } from 'antd';
import { CopyOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ShareStatus } from '@portal/contracts';
import { listShares, type ShareItem, type ShareableType } from '../api/shares';
import { useRevokeShare } from '../api/useShareMutations';
import { shareKeys } from '../api/keys';
import { confirmDanger } from '../../../lib/confirm';
import { notify } from '../../../lib/notify';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { AccessLogModal } from './AccessLogModal';
import { ShareDialog } from './ShareDialog';

const STATUS_COLORS: Record<ShareStatus, string> = { active: 'green', expired: 'default', revoked: 'red' };

/**
 * The share button and every share of a case, an order or a report: status, expiry, views, access log, revoke.
 * `notShareableReason` says why no new share can be made now (a report not yet published); the list stays.
 */
export function SharesCard({
  resourceType,
  resourceCode,
  notShareableReason,
}: {
  resourceType: ShareableType;
  resourceCode: string;
  notShareableReason?: string;
}) {
  const { t } = useTranslation('shares');
  const [dialog, setDialog] = useState(false);
  const [logOf, setLogOf] = useState<string | null>(null);
  const shares = useQuery({
    queryKey: shareKeys.list(resourceType, resourceCode),
    queryFn: () => listShares(resourceType, resourceCode),
  });
  const revoke = useRevokeShare({
    onSuccess: () => {
      notify.success(t('list.revoked'));
    },
  });
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      notify.success(t('dialog.copied'));
    } catch {
      notify.error(t('dialog.copyFailed'));
    }
  };
  return (
    <Card
      title={t('list.title')}
      data-testid="shares-card"
      extra={
        notShareableReason ? null : (
          <Button
            icon={<ShareAltOutlined aria-hidden />}
            onClick={() => setDialog(true)}
            data-testid="share-open-dialog"
          >
            {t('list.share')}
          </Button>
        )
      }
    >
      {notShareableReason ? (
        <Typography.Paragraph type="secondary" data-testid="share-not-shareable">
          {notShareableReason}
        </Typography.Paragraph>
      ) : null}
      <Table<ShareItem>
        size="small"
        rowKey="shareCode"
        loading={shares.isPending}
        dataSource={shares.data?.list ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('list.empty') }}
        data-testid="shares-table"
        columns={[
          {
            title: t('list.created'),
            dataIndex: 'createdAt',
            render: (v: string, s) => (
              <Space orientation="vertical" size={0}>
                <span>{formatDateTime(v)}</span>
                <Typography.Text type="secondary">{s.createdBy}</Typography.Text>
              </Space>
            ),
          },
          {
            title: t('list.status'),
            dataIndex: 'status',
            render: (v: ShareStatus, s) => (
              <Space size={4} wrap>
                <Tag color={STATUS_COLORS[v]} data-testid="share-status">
                  {t(`status.${v}`)}
                </Tag>
                {s.hasPassword ? <Tag>{t('list.password')}</Tag> : null}
                {s.showPatientName ? <Tag>{t('list.patientName')}</Tag> : null}
              </Space>
            ),
          },
          {
            title: t('list.expiry'),
            dataIndex: 'expiresAt',
            render: (v: string | null, s) =>
              v === null ? (
                t('remaining.never')
              ) : (
                <Space orientation="vertical" size={0}>
                  <span>{formatDate(v)}</span>
                  {s.status === 'active' ? (
                    <Typography.Text type="secondary">
                      {t('remaining.days', { count: s.remainingDays ?? 0 })}
                    </Typography.Text>
                  ) : null}
                </Space>
              ),
          },
          {
            title: t('list.views'),
            dataIndex: 'views',
            render: (v: number) => <span data-testid="share-views">{v}</span>,
          },
          {
            title: t('list.actions'),
            key: 'actions',
            render: (_, s) => (
              <Space size={4} wrap>
                {s.status === 'active' ? (
                  <Button size="small" icon={<CopyOutlined aria-hidden />} onClick={() => void copy(s.url)}>
                    {t('dialog.copy')}
                  </Button>
                ) : null}
                <Button size="small" onClick={() => setLogOf(s.shareCode)} data-testid="share-log">
                  {t('list.log')}
                </Button>
                {s.status === 'active' && s.canRevoke ? (
                  <Button
                    size="small"
                    danger
                    data-testid="share-revoke"
                    onClick={() =>
                      confirmDanger({
                        title: t('list.revokeConfirm'),
                        okText: t('list.revoke'),
                        cancelText: t('dialog.cancel'),
                        okTestId: 'share-revoke-confirm',
                        onOk: () => revoke.mutateAsync(s.shareCode),
                      })
                    }
                  >
                    {t('list.revoke')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <ShareDialog
        open={dialog}
        onClose={() => setDialog(false)}
        resourceType={resourceType}
        resourceCode={resourceCode}
      />
      <AccessLogModal shareCode={logOf} onClose={() => setLogOf(null)} />
    </Card>
  );
}
