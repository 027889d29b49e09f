import { useState } from 'react';
import { Button, Input, Select, Space, Tag, Typography } from 'antd';
import { ListTable } from '../../../components/ListTable';
import { OrganizationDetailDrawer } from './OrganizationDetailDrawer';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OrgStatus, OrgType, Permission, REGIONS } from '@portal/contracts';
import { Access } from '../../../components/Access';
import { confirmDanger } from '../../../lib/confirm';
import { formatDateTime } from '../../../lib/dates';
import { useListState, useSearchText } from '../../../lib/listState';
import { notify } from '../../../lib/notify';
import { sizeText } from '../../../lib/sizes';
import {
  listOrganizationsQuery,
  type Organization,
  type OrganizationChange,
  type OrganizationQuery,
} from '../api/organizations';
import { useChangeOrganizations, useRestoreOrganization } from '../api/useOrganizationMutations';
import { organizationListCodec } from '../lib/organizationListCodec';

const TYPES = [OrgType.Clinic, OrgType.Lab, OrgType.Dealer, OrgType.Oem] as const;
const STATUSES = [OrgStatus.Active, OrgStatus.Disabled, OrgStatus.Closed] as const;
const STATUS_COLOR: Record<number, string> = { [OrgStatus.Disabled]: 'red', [OrgStatus.Closed]: 'default' };

/** Every organization with its users and storage; the super administrator disables and enables them. */
export function OrganizationList() {
  const { t } = useTranslation('organizations');
  const [query, setQuery] = useListState(organizationListCodec);
  const [keyword, setKeyword] = useSearchText(query.keyword);
  const [opened, setOpened] = useState<string | null>(null);
  const list = useQuery(listOrganizationsQuery(query));
  const statusLabel = (v: number) => (v === OrgStatus.Closed ? t('restore.status') : t(`status.${v}`));
  const setFilters = (patch: Partial<OrganizationQuery>) => setQuery((q) => ({ ...q, ...patch, pageNum: 1 }));

  const change = useChangeOrganizations<{ change: OrganizationChange; codes: string[]; name: string }>({
    onSuccess: (_r, v) => notify.success(t(`done.${v.change}d`, { name: v.name })),
  });
  const restore = useRestoreOrganization<Organization>({
    onSuccess: (_r, o) => notify.success(t('restore.done', { name: o.name })),
  });

  const ask = (kind: OrganizationChange, o: Organization) => {
    const run = () => change.mutateAsync({ change: kind, codes: [o.organizationCode], name: o.name });
    if (kind === 'enable') return void run().catch(() => undefined);
    confirmDanger({
      title: t('confirmDisable', { name: o.name }),
      content: t('confirmDisableText'),
      okText: t('action.disable'),
      cancelText: t('common:cancel'),
      okTestId: 'organization-disable-confirm',
      onOk: run,
    });
  };

  const columns: ColumnsType<Organization> = [
    {
      title: t('col.name'),
      dataIndex: 'name',
      render: (name: string, o) => (
        <Typography.Link
          data-testid={`organization-open-${o.organizationCode}`}
          onClick={() => setOpened(o.organizationCode)}
        >
          {name}
        </Typography.Link>
      ),
    },
    { title: t('col.type'), dataIndex: 'type', render: (v: number) => t(`type.${v}`) },
    {
      title: t('col.region'),
      dataIndex: 'region',
      render: (v: string) => t(`register:region.${v}`, { defaultValue: v }),
    },
    {
      title: t('col.status'),
      dataIndex: 'status',
      render: (v: number, o) => (
        <Space orientation="vertical" size={0}>
          <Tag color={STATUS_COLOR[v] ?? 'green'}>{statusLabel(v)}</Tag>
          {o.purgeAfter ? (
            <span className="muted">{t('restore.purgeAfter', { date: formatDateTime(o.purgeAfter) })}</span>
          ) : null}
        </Space>
      ),
    },
    { title: t('col.users'), dataIndex: 'users', align: 'right' },
    { title: t('col.storage'), dataIndex: 'storageUsedBytes', align: 'right', render: (v: number) => sizeText(v) },
    { title: t('col.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
    {
      title: t('col.actions'),
      key: 'actions',
      render: (_, o) =>
        o.status === OrgStatus.Closed ? (
          <Access permission={Permission.OrganizationRestore}>
            <Button
              size="small"
              data-testid={`organization-restore-${o.organizationCode}`}
              loading={restore.isPending && restore.variables.organizationCode === o.organizationCode}
              disabled={Boolean(o.purgeAfter && new Date(o.purgeAfter) <= new Date())}
              onClick={() =>
                confirmDanger({
                  title: t('restore.confirm', { name: o.name }),
                  content: t('restore.text'),
                  okText: t('restore.action'),
                  cancelText: t('common:cancel'),
                  okTestId: 'organization-restore-confirm',
                  onOk: () => restore.mutateAsync(o),
                })
              }
            >
              {t('restore.action')}
            </Button>
          </Access>
        ) : (
          <Access permission={Permission.OrganizationManage}>
            {o.status === OrgStatus.Disabled ? (
              <Button
                size="small"
                data-testid={`organization-enable-${o.organizationCode}`}
                loading={change.isPending && change.variables.codes.includes(o.organizationCode)}
                onClick={() => ask('enable', o)}
              >
                {t('action.enable')}
              </Button>
            ) : (
              <Button
                size="small"
                danger
                data-testid={`organization-disable-${o.organizationCode}`}
                onClick={() => ask('disable', o)}
              >
                {t('action.disable')}
              </Button>
            )}
          </Access>
        ),
    },
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          data-testid="organization-search"
          aria-label={t('filter.keyword')}
          placeholder={t('filter.keyword')}
          allowClear
          style={{ width: 240 }}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilters({ keyword: v.trim() || undefined })}
        />
        <Select
          data-testid="organization-filter-type"
          aria-label={t('filter.type')}
          placeholder={t('filter.type')}
          allowClear
          style={{ minWidth: 150 }}
          value={query.type}
          onChange={(v?: number) => setFilters({ type: v })}
          options={TYPES.map((v) => ({ value: v, label: t(`type.${v}`) }))}
        />
        <Select
          data-testid="organization-filter-status"
          aria-label={t('filter.status')}
          placeholder={t('filter.status')}
          allowClear
          style={{ minWidth: 150 }}
          value={query.status}
          onChange={(v?: 1 | 2 | 3) => setFilters({ status: v })}
          options={STATUSES.map((v) => ({ value: v, label: statusLabel(v) }))}
        />
        <Select
          data-testid="organization-filter-region"
          aria-label={t('filter.region')}
          placeholder={t('filter.region')}
          allowClear
          style={{ minWidth: 150 }}
          value={query.region}
          onChange={(v?: (typeof REGIONS)[number]) => setFilters({ region: v })}
          options={REGIONS.map((v) => ({ value: v, label: t(`register:region.${v}`, { defaultValue: v }) }))}
        />
      </Space>
      <ListTable<Organization>
        rowKey="organizationCode"
        columns={columns}
        list={list}
        page={query}
        onPage={(page) => setQuery((q) => ({ ...q, ...page }))}
        rowAttributes={(o) => ({ 'data-testid': `organization-row-${o.organizationCode}`, 'data-status': o.status })}
      />
      <OrganizationDetailDrawer code={opened} onClose={() => setOpened(null)} />
    </>
  );
}
