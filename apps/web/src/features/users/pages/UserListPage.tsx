import { useState } from 'react';
import { Alert, Button, Card, Dropdown, Input, Modal, Select, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OrgType, Permission, type ManagedUser } from '@portal/contracts';
import { Access, useAccess } from '../../../components/Access';
import { confirmDanger } from '../../../lib/confirm';
import { formatDateTime } from '../../../lib/dates';
import { notify } from '../../../lib/notify';
import { useListState, useSearchText, usePageInRange } from '../../../lib/listState';
import { pagedTable } from '../../../lib/pagedTable';
import { roleLabel } from '../../../lib/roles';
import { useSession } from '../../../lib/session';
import { assignableRolesQuery } from '../api/assignableRoles';
import type { UserChange } from '../api/changeUsers';
import { listUsersQuery } from '../api/listUsers';
import { resetUserPassword } from '../api/resetUserPassword';
import { useChangeUsers } from '../api/useUserMutations';
import { UserFormModal } from '../components/UserFormModal';
import { UserInfoDrawer } from '../components/UserInfoDrawer';
import { UserStatusTag } from '../components/UserStatusTag';
import { SignInDisputes } from '../components/SignInDisputes';
import { userColumnSort, userListCodec, type UserListState } from '../lib/userListCodec';
import { sayIfRefused } from '../../../lib/refusal';
import { searchable } from '../../../lib/selectSearch';
import { listLoading } from '../../../lib/listLoading';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['users'];

/** Account → Users: the organization's users (every organization's for the super administrator). */
export default function UserListPage() {
  const { t } = useTranslation('users');
  const can = useAccess();
  const { user: me } = useSession();
  const [query, setQuery] = useListState(userListCodec);
  const [keyword, setKeyword] = useSearchText(query.keyword);
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<ManagedUser | 'new' | null>(null);
  const [viewing, setViewing] = useState<ManagedUser | null>(null);
  const [temporary, setTemporary] = useState<{ name: string; password: string } | null>(null);
  const list = useQuery(listUsersQuery(query));
  usePageInRange(query, list, (pageNum) => setQuery((s) => ({ ...s, pageNum })));
  const roles = useQuery(assignableRolesQuery());
  const isSuper = me?.organization.type === OrgType.Inner;

  const change = useChangeUsers({
    onSuccess: (r, v) => {
      notify.success(t(`done.${v.change}`, { count: r.count }));
      setSelected([]);
    },
  });
  const reset = useMutation({
    mutationFn: (u: ManagedUser) => resetUserPassword(u.userCode),
    onSuccess: (r, u) => setTemporary({ name: u.displayName, password: r.temporaryPassword }),
    onError: sayIfRefused,
  });

  const ask = (kind: UserChange, users: ManagedUser[]) => {
    const codes = users.map((u) => u.userCode);
    if (kind === 'enable') return change.mutate({ change: kind, codes });
    confirmDanger({
      title:
        users.length === 1
          ? t(`confirm.${kind}`, { name: users[0]!.displayName })
          : t(`confirm.${kind}Many`, { count: users.length }),
      content: t(`confirm.${kind}Hint`),
      okText: t(`action.${kind}`),
      cancelText: t('common:cancel'),
      okTestId: `user-${kind}-confirm`,
      onOk: () => change.mutateAsync({ change: kind, codes }),
    });
  };

  const rowActions = (u: ManagedUser) => {
    const items = [
      { key: 'view', label: t('action.view') },
      // A user whose role holds more than the caller's is theirs to view only (the server refuses the rest).
      ...(can(Permission.UserEdit) && u.manageable
        ? [
            { key: 'edit', label: t('action.edit') },
            u.status === 2 ? { key: 'enable', label: t('action.enable') } : null,
            !u.self && u.status !== 2 ? { key: 'disable', label: t('action.disable') } : null,
            !u.self && u.status === 1 ? { key: 'reset', label: t('action.reset') } : null,
            !u.self ? { key: 'delete', label: t('action.delete'), danger: true } : null,
          ]
        : []),
    ].filter((i) => i !== null);
    return (
      <Dropdown
        trigger={['click']}
        menu={{
          items,
          onClick: ({ key }) => {
            if (key === 'view') setViewing(u);
            else if (key === 'edit') setEditing(u);
            else if (key === 'reset') reset.mutate(u);
            else ask(key as UserChange, [u]);
          },
        }}
      >
        <Button size="small" data-testid={`user-actions-${u.account}`}>
          {t('actions')}
        </Button>
      </Dropdown>
    );
  };

  const columns: ColumnsType<ManagedUser> = [
    {
      title: t('field.displayName'),
      dataIndex: 'displayName',
      sorter: true,
      sortOrder: userColumnSort(query, 'displayName'),
      render: (v: string, u) => (
        <Typography.Link onClick={() => setViewing(u)}>
          {v}
          {u.self ? ` (${t('you')})` : ''}
        </Typography.Link>
      ),
    },
    { title: t('field.account'), dataIndex: 'account', sorter: true, sortOrder: userColumnSort(query, 'account') },
    { title: t('field.email'), dataIndex: 'email' },
    { title: t('field.phone'), dataIndex: 'phone' },
    { title: t('field.role'), key: 'role', render: (_, u) => roleLabel(t, u.role.name) },
    ...(isSuper
      ? [{ title: t('field.organization'), key: 'org', render: (_: unknown, u: ManagedUser) => u.organization.name }]
      : []),
    { title: t('field.status'), dataIndex: 'status', render: (s: number) => <UserStatusTag status={s} /> },
    { title: t('field.lastSignIn'), dataIndex: 'lastSignInAt', render: (v: string | null) => formatDateTime(v) },
    {
      title: t('field.createdAt'),
      dataIndex: 'createdAt',
      sorter: true,
      sortOrder: userColumnSort(query, 'createdAt'),
      render: (v: string) => formatDateTime(v),
    },
    { title: t('actions'), key: 'actions', fixed: 'right', render: (_, u) => rowActions(u) },
  ];

  const picked = (list.data?.list ?? []).filter((u) => selected.includes(u.userCode));
  return (
    <Card
      title={t('title')}
      data-testid="user-list"
      extra={
        <Access permission={Permission.UserEdit}>
          <Button type="primary" data-testid="user-add" onClick={() => setEditing('new')}>
            {t('add')}
          </Button>
        </Access>
      }
    >
      <Space wrap className="list-filters">
        <Input.Search
          allowClear
          placeholder={t('search')}
          aria-label={t('search')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setQuery((q) => ({ ...q, pageNum: 1, keyword: v.trim() || undefined }))}
          style={{ width: 260 }}
          data-testid="user-search"
        />
        <Select
          allowClear
          placeholder={t('field.status')}
          aria-label={t('field.status')}
          style={{ width: 160 }}
          value={query.status}
          onChange={(status?: 0 | 1 | 2) => setQuery((q) => ({ ...q, pageNum: 1, status }))}
          options={[0, 1, 2].map((s) => ({ value: s, label: t(`status.${s}`) }))}
        />
        <Select
          {...searchable}
          allowClear
          placeholder={t('field.role')}
          aria-label={t('field.role')}
          style={{ width: 220 }}
          value={query.roleCode}
          onChange={(roleCode?: string) => setQuery((q) => ({ ...q, pageNum: 1, roleCode }))}
          options={(roles.data ?? []).map((r) => ({ value: r.roleCode, label: roleLabel(t, r.name) }))}
        />
      </Space>
      {isSuper ? <SignInDisputes /> : null}
      <Access permission={Permission.UserEdit}>
        {picked.length > 0 ? (
          <Space className="list-batch" data-testid="user-batch">
            <Typography.Text>{t('selected', { count: picked.length })}</Typography.Text>
            <Button onClick={() => ask('enable', picked)}>{t('action.enable')}</Button>
            <Button onClick={() => ask('disable', picked)}>{t('action.disable')}</Button>
            <Button danger onClick={() => ask('delete', picked)}>
              {t('action.delete')}
            </Button>
          </Space>
        ) : null}
      </Access>
      <Table<ManagedUser>
        rowKey="userCode"
        size="middle"
        scroll={{ x: 'max-content' }}
        loading={listLoading(list)}
        columns={columns}
        dataSource={list.data?.list ?? []}
        rowSelection={
          can(Permission.UserEdit)
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys as string[]),
                getCheckboxProps: (u) => ({ disabled: u.self || !u.manageable }),
              }
            : undefined
        }
        onRow={(u) => ({ 'data-testid': `user-row-${u.account}` }) as React.HTMLAttributes<HTMLElement>}
        {...pagedTable<ManagedUser, UserListState>({
          state: query,
          setState: setQuery,
          total: list.data?.total ?? 0,
          showTotal: (total) => t('total', { count: total }),
          sortOf: (s) =>
            s?.order
              ? {
                  sortField:
                    s.field === 'displayName' ? 'displayName' : s.field === 'account' ? 'account' : 'createdAt',
                  sortOrder: s.order === 'ascend' ? 'asc' : 'desc',
                }
              : { sortField: 'createdAt', sortOrder: 'desc' },
        })}
      />
      <UserFormModal
        open={editing !== null}
        user={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
      />
      <UserInfoDrawer user={viewing} onClose={() => setViewing(null)} />
      <Modal
        open={temporary !== null}
        title={t('temporary.title', { name: temporary?.name ?? '' })}
        onOk={() => setTemporary(null)}
        onCancel={() => setTemporary(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <Alert type="info" showIcon title={t('temporary.hint')} />
        <Typography.Paragraph copyable code className="temporary-password" data-testid="user-temporary-password">
          {temporary?.password}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
