import { useState } from 'react';
import {
  Button,
  Card,
  Checkbox,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { APP_LIMITS, APP_SCOPES } from '@portal/contracts';
import { formatDateTime } from '../../../lib/dates';
import { listLoading } from '../../../lib/listLoading';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { SecretShownOnce } from '../../../components/SecretShownOnce';
import { registeredAppsQuery, type AppCreated, type RegisteredApp } from '../api/register';
import { useEditApp, useRegisterApp, useSendActivationLink, useSetAppStatus } from '../api/useAppMutations';
import { scopeLabel } from '../lib/scopes';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['apps'];

interface AppForm {
  name: string;
  redirectUris: string;
  scopes: string[];
  contactEmail: string;
  logoUrl?: string;
  launchUrl?: string;
  confidential: boolean;
  sendActivationLink: boolean;
}

const STATUS_COLOR: Record<RegisteredApp['status'], string> = {
  pending: 'processing',
  active: 'success',
  suspended: 'error',
};

/** One address per line, blank lines left out. */
const linesOf = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * Account → Apps (super administrator, app:manage): the OAuth apps that may ask users to act for them. Registering
 * shows a confidential app's secret this once, or mails its developer a one-time activation link that shows it to
 * them; a suspended app's requests and tokens are refused at once.
 */
export default function AppRegisterPage() {
  const { t } = useTranslation('apps');
  const list = useQuery(registeredAppsQuery());
  const [editing, setEditing] = useState<RegisteredApp | 'new' | null>(null);
  const [created, setCreated] = useState<AppCreated | null>(null);
  const [form] = Form.useForm<AppForm>();
  useBackClose(editing !== null, () => setEditing(null));

  const register = useRegisterApp({
    onSuccess: (app) => {
      setEditing(null);
      setCreated(app);
    },
  });
  const edit = useEditApp({
    onSuccess: () => {
      setEditing(null);
      notify.success(t('register.saved'));
    },
  });
  const status = useSetAppStatus();
  const resend = useSendActivationLink({
    onSuccess: (app) => notify.success(t('register.activationSent', { email: app.contactEmail })),
  });

  const open = (app: RegisteredApp | 'new') => {
    form.resetFields();
    if (app !== 'new')
      form.setFieldsValue({
        name: app.name,
        redirectUris: app.redirectUris.join('\n'),
        scopes: app.scopes,
        contactEmail: app.contactEmail,
        logoUrl: app.logoUrl ?? '',
        launchUrl: app.launchUrl ?? '',
        confidential: app.confidential,
      });
    setEditing(app);
  };
  const save = (v: AppForm) => {
    const fields = {
      name: v.name.trim(),
      redirectUris: linesOf(v.redirectUris),
      scopes: v.scopes as (typeof APP_SCOPES)[number][],
      contactEmail: v.contactEmail.trim(),
      ...(v.logoUrl?.trim() ? { logoUrl: v.logoUrl.trim() } : {}),
    };
    const launchUrl = v.launchUrl?.trim() ?? '';
    if (editing === 'new')
      register.mutate({
        ...fields,
        ...(launchUrl ? { launchUrl } : {}),
        confidential: v.confidential,
        sendActivationLink: v.sendActivationLink,
      });
    // Editing sends the launch address even when emptied: an empty one removes it.
    else if (editing) edit.mutate({ appCode: editing.appCode, ...fields, launchUrl });
  };

  const columns: ColumnsType<RegisteredApp> = [
    {
      title: t('register.app'),
      dataIndex: 'name',
      render: (name: string, app) => (
        <Space direction="vertical" size={0}>
          <strong>{name}</strong>
          <Typography.Text type="secondary" copyable={{ text: app.appCode }}>
            {app.appCode}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('register.status'),
      dataIndex: 'status',
      render: (s: RegisteredApp['status'], app) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATUS_COLOR[s]} data-testid={`app-status-${app.appCode}`}>
            {t(`register.statuses.${s}`)}
          </Tag>
          {app.activationExpiresAt ? (
            <Typography.Text type="secondary">
              {t('register.linkValidUntil', { time: formatDateTime(app.activationExpiresAt) })}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('register.kind'),
      dataIndex: 'confidential',
      render: (c: boolean) => t(c ? 'register.confidential' : 'register.public'),
    },
    {
      title: t('register.scopes'),
      dataIndex: 'scopes',
      render: (scopes: string[]) =>
        scopes.map((s) => (
          <Tooltip key={s} title={scopeLabel(t, s)}>
            <Tag>{s}</Tag>
          </Tooltip>
        )),
    },
    {
      title: t('register.redirectUris'),
      dataIndex: 'redirectUris',
      render: (uris: string[]) => (
        <Space direction="vertical" size={0}>
          {uris.map((u) => (
            <Typography.Text key={u} code>
              {u}
            </Typography.Text>
          ))}
        </Space>
      ),
    },
    { title: t('register.users'), dataIndex: 'users' },
    {
      title: t('register.lastUsed'),
      dataIndex: 'lastUsedAt',
      render: (v: string | null) => (v ? formatDateTime(v) : t('register.neverUsed')),
    },
    {
      title: t('register.action'),
      key: 'action',
      render: (_, app) => (
        <Space wrap>
          <Button size="small" onClick={() => open(app)} data-testid={`app-edit-${app.appCode}`}>
            {t('register.edit')}
          </Button>
          {app.status === 'pending' ? (
            <Button
              size="small"
              loading={resend.isPending && resend.variables === app.appCode}
              onClick={() => resend.mutate(app.appCode)}
              data-testid={`app-resend-${app.appCode}`}
            >
              {t('register.resendLink')}
            </Button>
          ) : app.status === 'active' ? (
            <Popconfirm
              title={t('register.suspendConfirm', { name: app.name })}
              onConfirm={() => status.mutate({ appCode: app.appCode, suspend: true })}
              okButtonProps={{ danger: true }}
            >
              <Button size="small" danger data-testid={`app-suspend-${app.appCode}`}>
                {t('register.suspend')}
              </Button>
            </Popconfirm>
          ) : (
            <Button
              size="small"
              loading={status.isPending && status.variables?.appCode === app.appCode}
              onClick={() => status.mutate({ appCode: app.appCode, suspend: false })}
              data-testid={`app-resume-${app.appCode}`}
            >
              {t('register.resume')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('register.title')}
      data-testid="app-register"
      extra={
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => open('new')} data-testid="app-add">
          {t('register.add')}
        </Button>
      }
    >
      <p>{t('register.explain')}</p>
      <Table<RegisteredApp>
        rowKey="appCode"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={listLoading(list)}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('register.empty')} /> }}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? t('register.add') : t('register.edit')}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        okButtonProps={{ loading: register.isPending || edit.isPending, 'data-testid': 'app-save' }}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          initialValues={{ scopes: ['openid', 'profile'], confidential: true, sendActivationLink: false }}
          onFinish={save}
        >
          <Form.Item
            name="name"
            label={t('register.name')}
            rules={[{ required: true, whitespace: true, message: t('common:required') }]}
          >
            <Input maxLength={APP_LIMITS.nameChars} data-testid="app-name" />
          </Form.Item>
          <Form.Item
            name="redirectUris"
            label={t('register.redirectUris')}
            extra={t('register.redirectUrisHint')}
            rules={[
              { required: true, whitespace: true, message: t('common:required') },
              {
                validator: (_, v: string | undefined) =>
                  linesOf(v ?? '').length > APP_LIMITS.redirectUris
                    ? Promise.reject(new Error(t('register.tooManyUris', { count: APP_LIMITS.redirectUris })))
                    : Promise.resolve(),
              },
            ]}
          >
            <Input.TextArea rows={3} placeholder="https://" data-testid="app-redirect-uris" />
          </Form.Item>
          <Form.Item
            name="scopes"
            label={t('register.scopes')}
            rules={[{ required: true, type: 'array', min: 1, message: t('common:required') }]}
          >
            <Checkbox.Group
              options={APP_SCOPES.map((s) => ({ label: `${s}: ${scopeLabel(t, s)}`, value: s }))}
              style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
            />
          </Form.Item>
          <Form.Item
            name="contactEmail"
            label={t('register.contact')}
            rules={[{ required: true, type: 'email', message: t('register.contactInvalid') }]}
          >
            <Input maxLength={APP_LIMITS.urlChars} data-testid="app-contact" />
          </Form.Item>
          <Form.Item name="logoUrl" label={t('register.logo')}>
            <Input maxLength={APP_LIMITS.urlChars} placeholder="https://" />
          </Form.Item>
          <Form.Item name="launchUrl" label={t('register.launchUrl')} extra={t('register.launchUrlHint')}>
            <Input maxLength={APP_LIMITS.urlChars} placeholder="https://" data-testid="app-launch-url" />
          </Form.Item>
          {editing === 'new' ? (
            <>
              <Form.Item
                name="confidential"
                label={t('register.confidential')}
                valuePropName="checked"
                extra={t('register.confidentialHint')}
              >
                <Switch data-testid="app-confidential" />
              </Form.Item>
              <Form.Item
                name="sendActivationLink"
                label={t('register.sendActivationLink')}
                valuePropName="checked"
                extra={t('register.sendActivationLinkHint', { days: APP_LIMITS.activationDays })}
              >
                <Switch data-testid="app-send-activation" />
              </Form.Item>
            </>
          ) : null}
        </Form>
      </Modal>
      <Modal
        open={created !== null}
        title={t('register.createdTitle', { name: created?.name ?? '' })}
        onOk={() => setCreated(null)}
        onCancel={() => setCreated(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <p>{t('register.clientId')}</p>
        <Typography.Paragraph copyable code data-testid="app-client-id">
          {created?.appCode}
        </Typography.Paragraph>
        {created?.activationSentTo ? (
          <p data-testid="app-activation-sent">
            {t('register.activationMailed', { email: created.activationSentTo, days: APP_LIMITS.activationDays })}
          </p>
        ) : created?.clientSecret ? (
          <SecretShownOnce
            secret={created.clientSecret}
            warning={t('register.secretOnce')}
            testId="app-client-secret"
          />
        ) : (
          <p>{t('register.noSecret')}</p>
        )}
      </Modal>
    </Card>
  );
}
