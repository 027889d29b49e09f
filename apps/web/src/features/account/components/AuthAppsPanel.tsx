import { Button, Card, Empty, Popconfirm, Space, Table, Tag, Tooltip } from 'antd';
import { Link } from 'react-router';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import { notify } from '../../../lib/notify';
import { authAppsQuery, type AuthorizedApp } from '../api/authApps';
import { useRevokeAuthApp } from '../api/useAccountMutations';
import { scopeLabel } from '../../apps';

/** Own space → auth management: third-party applications the user authorized, each revocable. */
export default function AuthAppsPanel() {
  const { t } = useTranslation('account');
  const { t: tApps } = useTranslation('apps');
  const list = useQuery(authAppsQuery());
  const revoke = useRevokeAuthApp({ onSuccess: () => notify.success(t('apps.revoked')) });

  const columns: ColumnsType<AuthorizedApp> = [
    { title: t('apps.name'), dataIndex: 'appName' },
    {
      title: t('apps.scopes'),
      dataIndex: 'scopes',
      render: (scopes: string[]) =>
        scopes.map((s) => (
          <Tooltip key={s} title={scopeLabel(tApps, s)}>
            <Tag>{s}</Tag>
          </Tooltip>
        )),
    },
    { title: t('apps.authorizedAt'), dataIndex: 'authorizedAt', render: (v: string) => formatDateTime(v) },
    {
      title: t('apps.lastUsedAt'),
      dataIndex: 'lastUsedAt',
      render: (v: string | null) => (v ? formatDateTime(v) : t('apps.neverUsed')),
    },
    {
      title: t('apps.action'),
      key: 'action',
      render: (_, app) => (
        <Space>
          {app.launchClientId ? (
            <Link
              to={`/as-auth-redirect/${encodeURIComponent(app.launchClientId)}`}
              data-testid={`app-open-${app.appCode}`}
            >
              <Button size="small">{t('apps.open')}</Button>
            </Link>
          ) : null}
          <Popconfirm
            title={t('apps.revokeConfirm', { name: app.appName })}
            onConfirm={() => revoke.mutate(app.appCode)}
            okButtonProps={{ danger: true }}
          >
            <Button danger size="small" data-testid={`app-revoke-${app.appCode}`}>
              {t('apps.revoke')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('apps.title')} data-testid="own-auth-apps">
      <p>{t('apps.explain')}</p>
      <Table<AuthorizedApp>
        rowKey="appCode"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('apps.empty')} /> }}
      />
    </Card>
  );
}
