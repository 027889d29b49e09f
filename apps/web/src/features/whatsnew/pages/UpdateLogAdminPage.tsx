import { useState } from 'react';
import { Button, Card, Select, Space, Table, Tabs, Tag } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { UpdateLogAdminPage as AdminPage, UsageWeeklyRow } from '@portal/contracts';
import { confirmDanger } from '../../../lib/confirm';
import { formatDate } from '../../../lib/dates';
import { useListState, usePageInRange } from '../../../lib/listState';
import { whatsNewKeys } from '../api/keys';
import { listUpdateLogAdmin } from '../api/updateLog';
import { useDeleteUpdateLogs } from '../api/useUpdateLogMutations';
import { usageWeekly } from '../api/usage';
import { UpdateLogEditor } from '../components/UpdateLogEditor';
import { updateLogAdminCodec, UPDATE_LOG_ADMIN_TABS } from '../lib/updateLogAdminCodec';
import { listLoading } from '../../../lib/listLoading';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['whatsnew'];

type Entry = AdminPage['list'][number];
const PAGE_SIZE = 20;

/** Account → Update log: the super administrator writes the entries, and reads the improvement programme's counts. */
export default function UpdateLogAdminPage() {
  const { t } = useTranslation('whatsnew');
  // The tab, the page of entries and the weeks counted are in the address (back from an entry returns to its page).
  const [state, setState] = useListState(updateLogAdminCodec);
  return (
    <Card title={t('admin.title')} data-testid="update-log-admin">
      <Tabs
        activeKey={state.tab}
        onChange={(key) => setState((s) => ({ ...s, tab: UPDATE_LOG_ADMIN_TABS.find((k) => k === key) ?? 'entries' }))}
        destroyOnHidden
        items={[
          {
            key: 'entries',
            label: <span data-testid="update-log-tab-entries">{t('admin.entries')}</span>,
            children: <Entries pageNum={state.pageNum} onPage={(pageNum) => setState((s) => ({ ...s, pageNum }))} />,
          },
          {
            key: 'usage',
            label: <span data-testid="update-log-tab-usage">{t('usage.title')}</span>,
            children: <Usage weeks={state.weeks} onWeeks={(weeks) => setState((s) => ({ ...s, weeks }))} />,
          },
        ]}
      />
    </Card>
  );
}

function Entries({ pageNum, onPage }: { pageNum: number; onPage: (pageNum: number) => void }) {
  const { t } = useTranslation('whatsnew');
  const [editing, setEditing] = useState<number | null | undefined>(undefined);
  const list = useQuery({
    queryKey: whatsNewKeys.adminList(pageNum),
    queryFn: () => listUpdateLogAdmin(pageNum, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  usePageInRange({ pageNum, pageSize: PAGE_SIZE }, list, onPage);
  const remove = useDeleteUpdateLogs();

  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={() => setEditing(null)} data-testid="update-log-new">
          {t('admin.new')}
        </Button>
      </Space>
      <Table<Entry>
        rowKey="id"
        size="middle"
        loading={listLoading(list)}
        dataSource={list.data?.list ?? []}
        scroll={{ x: 640 }}
        pagination={{ current: pageNum, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: onPage }}
        data-testid="update-log-list"
        columns={[
          { title: t('admin.version'), dataIndex: 'version', width: 110 },
          { title: t('admin.date'), dataIndex: 'releaseDate', width: 130, render: (d: string) => formatDate(d) },
          {
            title: t('admin.entryTitle'),
            dataIndex: 'title',
            render: (title: string, e) => <Link to={`/whatsnew/${e.id}`}>{title}</Link>,
          },
          {
            title: t('admin.languages'),
            dataIndex: 'languages',
            render: (languages: string[]) => languages.map((l) => <Tag key={l}>{l}</Tag>),
          },
          {
            title: t('admin.actions'),
            key: 'actions',
            width: 170,
            render: (_, e) => (
              <Space>
                <Button size="small" onClick={() => setEditing(e.id)} data-testid="update-log-edit">
                  {t('admin.edit')}
                </Button>
                <Button
                  size="small"
                  danger
                  data-testid="update-log-delete"
                  onClick={() =>
                    confirmDanger({
                      title: t('admin.confirmDelete', { version: e.version }),
                      okText: t('admin.delete'),
                      cancelText: t('common:cancel'),
                      okTestId: 'update-log-delete-confirm',
                      onOk: () => remove.mutateAsync([e.id]),
                    })
                  }
                >
                  {t('admin.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing !== undefined ? <UpdateLogEditor id={editing} onClose={() => setEditing(undefined)} /> : null}
    </>
  );
}

function Usage({ weeks, onWeeks }: { weeks: number; onWeeks: (weeks: number) => void }) {
  const { t } = useTranslation('whatsnew');
  const usage = useQuery({ queryKey: whatsNewKeys.usage(weeks), queryFn: () => usageWeekly(weeks) });
  return (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        <span>{t('usage.period')}</span>
        <Select
          value={weeks}
          onChange={onWeeks}
          aria-label={t('usage.period')}
          style={{ width: 160 }}
          options={[1, 4, 8, 12, 26, 52].map((n) => ({ value: n, label: t('usage.weeks', { count: n }) }))}
        />
      </Space>
      <p>{t('usage.anonymous')}</p>
      <Table<UsageWeeklyRow>
        rowKey={(r) => `${r.weekStart}:${r.screen}`}
        size="middle"
        loading={listLoading(usage)}
        dataSource={usage.data?.list ?? []}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        scroll={{ x: 560 }}
        data-testid="usage-weekly"
        columns={[
          { title: t('usage.week'), dataIndex: 'weekStart', render: (d: string) => formatDate(d) },
          { title: t('usage.screen'), dataIndex: 'screen' },
          { title: t('usage.opens'), dataIndex: 'screenOpens', align: 'right' },
          { title: t('usage.actions'), dataIndex: 'actions', align: 'right' },
          {
            title: t('usage.loadMs'),
            dataIndex: 'averageLoadMs',
            align: 'right',
            render: (ms: number | null) => (ms === null ? '—' : ms),
          },
        ]}
      />
    </>
  );
}
