import { useState } from 'react';
import { Card, Empty, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { APP_CALL_LOG_DAYS } from '@portal/contracts';
import { formatDateTime } from '../../../lib/dates';
import { usePageInRange } from '../../../lib/listState';
import { CALL_LOG_PAGE_SIZE, callLogQuery, type AppCallLogEntry } from '../api/callLog';

/**
 * Own space → App activity (the organization's administrators): which app called which part of the API for which
 * member, counted per minute, with the calls that were refused.
 */
export default function AppActivityPanel() {
  const { t } = useTranslation('apps');
  const [page, setPage] = useState(1);
  const log = useQuery(callLogQuery(page));
  usePageInRange({ pageNum: page, pageSize: CALL_LOG_PAGE_SIZE }, log, setPage);

  const columns: ColumnsType<AppCallLogEntry> = [
    { title: t('activity.minute'), dataIndex: 'minute', render: (v: string) => formatDateTime(v) },
    { title: t('activity.app'), dataIndex: 'appName' },
    {
      title: t('activity.member'),
      dataIndex: 'userName',
      render: (name: string, e) => (
        <Space direction="vertical" size={0}>
          <span>{name}</span>
          <Typography.Text type="secondary">{e.account}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t('activity.call'),
      dataIndex: 'call',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: t('activity.calls'), dataIndex: 'calls', align: 'right' },
    {
      title: t('activity.refused'),
      dataIndex: 'refused',
      align: 'right',
      render: (n: number) => (n > 0 ? <Tag color="error">{n}</Tag> : n),
    },
  ];

  return (
    <Card title={t('activity.title')} data-testid="app-activity">
      <p>{t('activity.explain', { days: APP_CALL_LOG_DAYS })}</p>
      <Table<AppCallLogEntry>
        rowKey={(e) => `${e.minute}|${e.appCode}|${e.userCode}|${e.call}`}
        columns={columns}
        dataSource={log.data?.list ?? []}
        loading={log.isPending}
        scroll={{ x: 'max-content' }}
        onRow={(e) => ({ 'data-testid': `app-activity-${e.call}` }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: page,
          pageSize: CALL_LOG_PAGE_SIZE,
          total: log.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        locale={{ emptyText: <Empty description={t('activity.empty')} /> }}
      />
    </Card>
  );
}
