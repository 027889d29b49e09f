import { useState } from 'react';
import { Button, Input, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OrgStatus, OrgType, Permission, REGIONS } from '@portal/contracts';
import { Access } from '../../../components/Access';
import { confirmDanger } from '../../../lib/confirm';
import { formatDateTime } from '../../../lib/dates';
import { notify } from '../../../lib/notify';
import { sizeText } from '../../../lib/sizes';
import {
  changeOrganizations,
  listOrganizationsQuery,
  organizationKeys,
  type Organization,
  type OrganizationChange,
  type OrganizationQuery,
} from '../api/organizations';

const TYPES = [OrgType.Clinic, OrgType.Lab, OrgType.Dealer, OrgType.Oem] as const;
const STATUSES = [OrgStatus.Active, OrgStatus.Disabled] as const;

/** Every organization with its users and storage; the super administrator disables and enables them. */
export function OrganizationList() {
  const { t } = useTranslation('organizations');
  const qc = useQueryClient();
  const [query, setQuery] = useState<OrganizationQuery>({ pageNum: 1, pageSize: 20 });
  const [keyword, setKeyword] = useState('');
  const list = useQuery(listOrganizationsQuery(query));
  const setFilters = (patch: Partial<OrganizationQuery>) => setQuery((q) => ({ ...q, ...patch, pageNum: 1 }));

  const change = useMutation({
    mutationFn: (v: { change: OrganizationChange; codes: string[]; name: string }) => changeOrganizations(v),
    onSuccess: (_r, v) => notify.success(t(`done.${v.change}d`, { name: v.name })),
    // Whatever happened, the list shows the statuses as they are now.
    onSettled: () => qc.invalidateQueries({ queryKey: organizationKeys.lists }),
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
    { title: t('col.name'), dataIndex: 'name' },
    { title: t('col.type'), dataIndex: 'type', render: (v: number) => t(`type.${v}`) },
    {
      title: t('col.region'),
      dataIndex: 'region',
      render: (v: string) => t(`register:region.${v}`, { defaultValue: v }),
    },
    {
      title: t('col.status'),
      dataIndex: 'status',
      render: (v: number) => <Tag color={v === OrgStatus.Disabled ? 'red' : 'green'}>{t(`status.${v}`)}</Tag>,
    },
    { title: t('col.users'), dataIndex: 'users', align: 'right' },
    { title: t('col.storage'), dataIndex: 'storageUsedBytes', align: 'right', render: (v: number) => sizeText(v) },
    { title: t('col.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
    {
      title: t('col.actions'),
      key: 'actions',
      render: (_, o) => (
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
          onChange={(v?: 1 | 2) => setFilters({ status: v })}
          options={STATUSES.map((v) => ({ value: v, label: t(`status.${v}`) }))}
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
      <Table<Organization>
        rowKey="organizationCode"
        size="middle"
        scroll={{ x: 'max-content' }}
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.list ?? []}
        onRow={(o) =>
          ({
            'data-testid': `organization-row-${o.organizationCode}`,
            'data-status': o.status,
          }) as React.HTMLAttributes<HTMLElement>
        }
        pagination={{
          current: query.pageNum,
          pageSize: query.pageSize,
          total: list.data?.total ?? 0,
          onChange: (pageNum, pageSize) => setQuery((q) => ({ ...q, pageNum, pageSize })),
        }}
      />
    </>
  );
}
