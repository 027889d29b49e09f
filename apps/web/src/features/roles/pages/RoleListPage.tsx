import { useEffect, useState } from 'react';
import { Button, Card, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX, OrgType, Permission, type ManagedRole } from '@portal/contracts';
import { Access, useAccess } from '../../../components/Access';
import { confirmDanger } from '../../../lib/confirm';
import { formatDateTime } from '../../../lib/dates';
import { notify } from '../../../lib/notify';
import { roleLabel } from '../../../lib/roles';
import { useListState, useSearchText, usePageInRange } from '../../../lib/listState';
import { useSession } from '../../../lib/session';
import { listRolesQuery } from '../api/listRoles';
import { useDeleteRoles, useSaveRole, useSetDefaultRole } from '../api/useRoleMutations';
import { RoleMenuModal } from '../components/RoleMenuModal';
import { roleListCodec } from '../lib/roleListCodec';
import { listLoading } from '../../../lib/listLoading';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['roles'];

const ORG_TYPES = [OrgType.Inner, OrgType.Clinic, OrgType.Lab, OrgType.Dealer, OrgType.Oem];

/** Account → Role Management: built-in roles (read-only), the organization's own, who holds them, their menus. */
export default function RoleListPage() {
  const { t } = useTranslation('roles');
  const can = useAccess();
  const { user } = useSession();
  const isSuper = user?.organization.type === OrgType.Inner;
  const [query, setQuery] = useListState(roleListCodec);
  const [keyword, setKeyword] = useSearchText(query.keyword);
  const [naming, setNaming] = useState<ManagedRole | 'new' | null>(null);
  const [menus, setMenus] = useState<ManagedRole | null>(null);
  const list = useQuery(listRolesQuery(query));
  usePageInRange(query, list, (pageNum) => setQuery((s) => ({ ...s, pageNum })));
  const [form] = Form.useForm<{ name: string; orgType?: number }>();

  const save = useSaveRole({
    onSuccess: () => {
      notify.success(t('saved'));
      setNaming(null);
    },
  });
  const remove = useDeleteRoles({ onSuccess: () => notify.success(t('deleted')) });
  const makeDefault = useSetDefaultRole({ onSuccess: () => notify.success(t('defaultSet')) });

  useEffect(() => {
    if (naming === null) return;
    form.resetFields();
    if (naming !== 'new') form.setFieldsValue({ name: naming.name });
  }, [naming, form]);

  const ownedBy = (r: ManagedRole) => !r.builtIn && (isSuper || r.organizationCode === user?.organization.code);
  const columns: ColumnsType<ManagedRole> = [
    {
      title: t('field.name'),
      key: 'name',
      render: (_, r) => (
        <Space>
          {roleLabel(t, r.name)}
          {r.builtIn ? <Tag>{t('builtIn')}</Tag> : null}
          {r.defaultForRegistered ? <Tag color="blue">{t('default')}</Tag> : null}
        </Space>
      ),
    },
    ...(isSuper
      ? [{ title: t('field.orgType'), key: 'type', render: (_: unknown, r: ManagedRole) => t(`orgType.${r.orgType}`) }]
      : []),
    {
      title: t('field.scope'),
      key: 'scope',
      render: (_, r) => (r.organizationCode ? t('scope.own') : t('scope.shared')),
    },
    { title: t('field.users'), dataIndex: 'users' },
    { title: t('field.createdAt'), dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
    {
      title: t('actions'),
      key: 'actions',
      render: (_, r) => (
        <Space wrap>
          <Button size="small" data-testid={`role-menus-${r.roleCode}`} onClick={() => setMenus(r)}>
            {ownedBy(r) && can(Permission.RoleEdit) ? t('action.menus') : t('action.viewMenus')}
          </Button>
          {ownedBy(r) ? (
            <Access permission={Permission.RoleEdit}>
              <Button size="small" onClick={() => setNaming(r)}>
                {t('action.rename')}
              </Button>
              {isSuper && !r.organizationCode && !r.defaultForRegistered && r.orgType !== OrgType.Inner ? (
                <Button size="small" onClick={() => makeDefault.mutate(r.roleCode)}>
                  {t('action.setDefault')}
                </Button>
              ) : null}
              <Button
                size="small"
                danger
                disabled={r.users > 0 || r.defaultForRegistered}
                title={r.users > 0 ? t('inUse', { count: r.users }) : undefined}
                onClick={() =>
                  confirmDanger({
                    title: t('confirmDelete', { name: r.name }),
                    okText: t('action.delete'),
                    cancelText: t('common:cancel'),
                    okTestId: 'role-delete-confirm',
                    onOk: () => remove.mutateAsync([r.roleCode]),
                  })
                }
              >
                {t('action.delete')}
              </Button>
            </Access>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('title')}
      data-testid="role-list"
      extra={
        <Access permission={Permission.RoleEdit}>
          <Button type="primary" data-testid="role-add" onClick={() => setNaming('new')}>
            {t('add')}
          </Button>
        </Access>
      }
    >
      <Input.Search
        allowClear
        placeholder={t('search')}
        aria-label={t('search')}
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        onSearch={(v) => setQuery((q) => ({ ...q, pageNum: 1, keyword: v.trim() || undefined }))}
        style={{ width: 260, marginBottom: 16 }}
      />
      <Table<ManagedRole>
        rowKey="roleCode"
        size="middle"
        scroll={{ x: 'max-content' }}
        loading={listLoading(list)}
        columns={columns}
        dataSource={list.data?.list ?? []}
        onRow={(r) => ({ 'data-testid': `role-row-${r.name}` }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: query.pageNum,
          pageSize: query.pageSize,
          total: list.data?.total ?? 0,
          onChange: (pageNum, pageSize) => setQuery((q) => ({ ...q, pageNum, pageSize })),
        }}
      />
      <Modal
        open={naming !== null}
        title={naming === 'new' ? t('addTitle') : t('renameTitle')}
        okText={t('save')}
        cancelText={t('common:cancel')}
        okButtonProps={{ loading: save.isPending, 'data-testid': 'role-name-save' }}
        onOk={() => form.submit()}
        onCancel={() => setNaming(null)}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) => save.mutate({ ...v, roleCode: naming && naming !== 'new' ? naming.roleCode : undefined })}
        >
          <Form.Item
            name="name"
            label={t('field.name')}
            rules={[{ required: true, whitespace: true, message: t('common:required') }]}
          >
            <Input maxLength={FIELD_MAX.name} data-testid="role-name" />
          </Form.Item>
          {isSuper && naming === 'new' ? (
            <Form.Item name="orgType" label={t('field.orgType')} extra={t('sharedHint')}>
              <Select
                allowClear
                options={ORG_TYPES.filter((o) => o !== OrgType.Inner).map((o) => ({
                  value: o,
                  label: t(`orgType.${o}`),
                }))}
              />
            </Form.Item>
          ) : null}
        </Form>
      </Modal>
      <RoleMenuModal
        role={menus ? { ...menus, builtIn: menus.builtIn || !ownedBy(menus) || !can(Permission.RoleEdit) } : null}
        onClose={() => setMenus(null)}
      />
    </Card>
  );
}
