import { useState } from 'react';
import { Button, Card, DatePicker, Empty, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DownloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ACCESS_ACTIONS,
  ACCESS_LOG_EXPORT_MAX_ROWS,
  ACCESS_VIA,
  type AccessAction,
  type AccessVia,
} from '@portal/contracts';
import { formatDateTime } from '../../../lib/dates';
import { saveBlob } from '../../../lib/download';
import { usePageInRange } from '../../../lib/listState';
import { searchable } from '../../../lib/selectSearch';
import { ScreenLink } from '../../../components/ScreenLink';
import { caseDetailPath } from '../../cases';
import {
  ACCESS_LOG_PAGE_SIZE,
  accessLogQuery,
  exportAccessLog,
  type AccessLogEntry,
  type AccessLogFilter,
} from '../api/accessLog';

/**
 * Own space → Access log (clinic and laboratory administrators): every read of patient data, by members, apps,
 * laboratories and share-link visitors, filtered and exported as CSV. Entries cannot be changed or removed.
 */
export default function AccessLogPanel() {
  const { t } = useTranslation('audit');
  const [filter, setFilter] = useState<AccessLogFilter>({});
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [caseCode, setCaseCode] = useState('');
  const [page, setPage] = useState(1);
  const log = useQuery(accessLogQuery(filter, page));
  usePageInRange({ pageNum: page, pageSize: ACCESS_LOG_PAGE_SIZE }, log, setPage);
  const download = useMutation({
    mutationFn: () => exportAccessLog(filter),
    onSuccess: (file) => saveBlob(file.blob, file.filename ?? 'access-log.csv'),
  });

  const narrow = (change: Partial<AccessLogFilter>) => {
    setFilter((f) => ({ ...f, ...change }));
    setPage(1);
  };
  const onRange = (v: [Dayjs | null, Dayjs | null] | null) => {
    const picked = v && v[0] && v[1] ? ([v[0], v[1]] as [Dayjs, Dayjs]) : null;
    setRange(picked);
    narrow({ dateFrom: picked?.[0].format('YYYY-MM-DD'), dateTo: picked?.[1].format('YYYY-MM-DD') });
  };
  const clear = () => {
    setRange(null);
    setCaseCode('');
    setFilter({});
    setPage(1);
  };
  const filtered = Object.values(filter).some((v) => v !== undefined && v !== '');

  const columns: ColumnsType<AccessLogEntry> = [
    { title: t('column.time'), dataIndex: 'at', render: (v: string) => formatDateTime(v) },
    {
      title: t('column.action'),
      dataIndex: 'action',
      render: (a: AccessAction) => <Tag>{t(`action.${a}`)}</Tag>,
    },
    {
      title: t('column.who'),
      key: 'who',
      render: (_, e) => (
        <Space direction="vertical" size={0}>
          {e.via === 'share' ? (
            <span>{t('who.visitor')}</span>
          ) : e.userCode && e.userName ? (
            <Button
              type="link"
              size="small"
              style={{ padding: 0 }}
              data-testid={`access-member-${e.id}`}
              onClick={() => narrow({ user: { code: e.userCode!, name: e.userName! } })}
            >
              {e.userName}
            </Button>
          ) : (
            <span>{t('who.gone')}</span>
          )}
          {e.account && <Typography.Text type="secondary">{e.account}</Typography.Text>}
          {e.organizationName && <Typography.Text type="secondary">{e.organizationName}</Typography.Text>}
          {e.appCode && (
            <Button
              type="link"
              size="small"
              style={{ padding: 0 }}
              onClick={() => narrow({ app: { code: e.appCode!, name: e.appName ?? e.appCode! } })}
            >
              {t('who.viaApp', { app: e.appName ?? e.appCode })}
            </Button>
          )}
        </Space>
      ),
    },
    {
      title: t('column.what'),
      key: 'what',
      render: (_, e) => (
        <Space direction="vertical" size={0}>
          {e.caseCode ? (
            <ScreenLink to={caseDetailPath(e.caseCode)}>{t('what.case', { code: e.caseCode })}</ScreenLink>
          ) : e.action === 'case.list' || e.action === 'order.list' ? null : (
            <span>{t('what.gone')}</span>
          )}
          {e.orderCode && (
            <ScreenLink to={`/order-management/detail/${encodeURIComponent(e.orderCode)}`}>
              {t('what.order', { code: e.orderCode })}
            </ScreenLink>
          )}
          {e.fileCode && <Typography.Text type="secondary">{t('what.file', { code: e.fileCode })}</Typography.Text>}
          {e.reportCode && (
            <Typography.Text type="secondary">{t('what.report', { code: e.reportCode })}</Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('column.from'),
      key: 'from',
      render: (_, e) => (
        <Space direction="vertical" size={0}>
          {e.address &&
            (e.via === 'share' ? (
              <Tooltip title={t('from.hashExplain')}>
                <Typography.Text code>{e.address}</Typography.Text>
              </Tooltip>
            ) : (
              <Typography.Text code>{e.address}</Typography.Text>
            ))}
          {e.userAgent && <Typography.Text type="secondary">{e.userAgent}</Typography.Text>}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('title')}
      data-testid="access-log"
      extra={
        <Tooltip title={t('exportLimit', { n: ACCESS_LOG_EXPORT_MAX_ROWS.toLocaleString() })}>
          <Button
            icon={<DownloadOutlined aria-hidden />}
            loading={download.isPending}
            onClick={() => download.mutate()}
            data-testid="access-log-export"
          >
            {t('export')}
          </Button>
        </Tooltip>
      }
    >
      <p>{t('explain')}</p>
      <Space wrap style={{ marginBottom: 16 }}>
        <DatePicker.RangePicker
          aria-label={t('filter.dates')}
          value={range}
          onChange={(v) => onRange(v)}
          allowClear
          data-testid="access-log-range"
        />
        <Select
          {...searchable}
          aria-label={t('filter.action')}
          placeholder={t('filter.action')}
          allowClear
          style={{ minWidth: 220 }}
          value={filter.action}
          onChange={(v?: AccessAction) => narrow({ action: v })}
          options={ACCESS_ACTIONS.map((a) => ({ value: a, label: t(`action.${a}`) }))}
          data-testid="access-log-action"
        />
        <Select
          aria-label={t('filter.via')}
          placeholder={t('filter.via')}
          allowClear
          style={{ minWidth: 160 }}
          value={filter.via}
          onChange={(v?: AccessVia) => narrow({ via: v })}
          options={ACCESS_VIA.map((v) => ({ value: v, label: t(`via.${v}`) }))}
          data-testid="access-log-via"
        />
        <Input.Search
          aria-label={t('filter.caseCode')}
          placeholder={t('filter.caseCode')}
          allowClear
          style={{ width: 220 }}
          value={caseCode}
          onChange={(e) => {
            setCaseCode(e.target.value);
            if (!e.target.value) narrow({ caseCode: undefined });
          }}
          onSearch={(v) => narrow({ caseCode: v.trim() || undefined })}
          data-testid="access-log-case"
        />
        {filter.user && (
          <Tag closable onClose={() => narrow({ user: undefined })} data-testid="access-log-member-filter">
            {t('filter.member', { name: filter.user.name })}
          </Tag>
        )}
        {filter.app && (
          <Tag closable onClose={() => narrow({ app: undefined })}>
            {t('filter.app', { name: filter.app.name })}
          </Tag>
        )}
        {filtered && (
          <Button type="link" onClick={clear}>
            {t('filter.clear')}
          </Button>
        )}
      </Space>
      <Table<AccessLogEntry>
        rowKey="id"
        columns={columns}
        dataSource={log.data?.list ?? []}
        loading={log.isPending || log.isPlaceholderData}
        scroll={{ x: 'max-content' }}
        onRow={(e) => ({ 'data-testid': `access-${e.action}` }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: page,
          pageSize: ACCESS_LOG_PAGE_SIZE,
          total: log.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        locale={{ emptyText: <Empty description={t('empty')} /> }}
      />
    </Card>
  );
}
