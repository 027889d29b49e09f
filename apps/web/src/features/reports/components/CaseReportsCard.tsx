import { useState } from 'react';
import { Button, Card, Empty, List, Popconfirm, Space, Tag, Typography } from 'antd';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import EditOutlined from '@ant-design/icons/EditOutlined';
import EyeOutlined from '@ant-design/icons/EyeOutlined';
import FileAddOutlined from '@ant-design/icons/FileAddOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Access } from '../../../components/Access';
import { formatDateTime } from '../../../lib/dates';
import { notify } from '../../../lib/notify';
import { reportKeys } from '../api/keys';
import { createReport, listReports } from '../api/reports';
import { useDeleteReport, useReportListsChanged } from '../api/useReportMutations';
import { reportDesignPath, reportPreviewPath } from '../lib/paths';

/** The reports of a case on its detail page: several per case, each a draft or published in versions. */
export function CaseReportsCard({ caseCode }: { caseCode: string }) {
  const { t } = useTranslation('reports');
  const listsChanged = useReportListsChanged();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const list = useQuery({ queryKey: reportKeys.list(caseCode), queryFn: () => listReports(caseCode) });
  const remove = useDeleteReport({ onSuccess: () => notify.success(t('deleted')) });
  const create = async () => {
    setCreating(true);
    try {
      const made = await createReport(caseCode);
      listsChanged();
      void navigate(reportDesignPath(made.reportCode));
    } catch {
      /* reported by the http client */
    } finally {
      setCreating(false);
    }
  };
  const reports = list.data?.list ?? [];
  return (
    <Card
      title={t('section')}
      data-testid="case-reports"
      extra={
        <Access permission="report:edit">
          <Button
            type="primary"
            icon={<FileAddOutlined aria-hidden />}
            loading={creating}
            data-testid="report-create"
            onClick={() => void create()}
          >
            {t('create')}
          </Button>
        </Access>
      }
    >
      {reports.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('none')} />
      ) : (
        <List
          size="small"
          dataSource={reports}
          renderItem={(r) => (
            <List.Item
              data-testid={`report-item-${r.reportCode}`}
              actions={[
                <Access key="edit" permission="report:edit">
                  <Link to={reportDesignPath(r.reportCode)}>
                    <Button size="small" icon={<EditOutlined aria-hidden />}>
                      {t('open')}
                    </Button>
                  </Link>
                </Access>,
                <Link key="preview" to={reportPreviewPath(r.reportCode, r.version || undefined)}>
                  <Button size="small" icon={<EyeOutlined aria-hidden />}>
                    {t('preview')}
                  </Button>
                </Link>,
                <Access key="delete" permission="report:edit">
                  <Popconfirm
                    title={t('deleteConfirm')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove.mutateAsync(r.reportCode)}
                  >
                    <Button size="small" danger icon={<DeleteOutlined aria-hidden />} aria-label={t('delete')} />
                  </Popconfirm>
                </Access>,
              ]}
            >
              <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
                <Typography.Text strong ellipsis>
                  {r.title || t('untitled')}
                </Typography.Text>
                <Space size={4} wrap>
                  {r.version ? (
                    <Tag color="green">{t('status.published', { version: r.version })}</Tag>
                  ) : (
                    <Tag>{t('status.draft')}</Tag>
                  )}
                  {r.changedSincePublished ? <Tag color="orange">{t('status.changed')}</Tag> : null}
                  <Typography.Text type="secondary">
                    {t('updated', { time: formatDateTime(r.updatedAt) })}
                  </Typography.Text>
                </Space>
              </Space>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
