import { Button, Descriptions, Result, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../../components/PublicPage';
import { SecretShownOnce } from '../../../components/SecretShownOnce';
import { formatDateTime } from '../../../lib/dates';
import { ApiError, errorText } from '../../../lib/http';
import { activateApp, activationQuery } from '../api/activate';
import { scopeLabel } from '../lib/scopes';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['apps', 'errors'];

/**
 * /activate-app/{sign} (public, light theme): the developer of an app registered for them opens the mailed one-time
 * link, checks what the app may do, and activates it; the client ID and secret are shown this once.
 */
export default function AppActivatePage() {
  const { t } = useTranslation('apps');
  const { sign = '' } = useParams();
  const app = useQuery(activationQuery(sign));
  const activate = useMutation({ mutationFn: () => activateApp(sign) });

  const failure = (err: unknown) => (
    <Result
      status="warning"
      data-testid="app-activate-failed"
      data-code={err instanceof ApiError ? err.code : 0}
      title={
        err instanceof ApiError ? (errorText(err.code, err.message) ?? t('activate.failed')) : t('activate.failed')
      }
      subTitle={t('activate.askAgain')}
    />
  );

  let body: React.ReactNode;
  if (activate.isSuccess) {
    const done = activate.data;
    body = (
      <div data-testid="app-activated">
        <Result status="success" title={t('activate.done', { app: done.appName })} style={{ padding: '8px 0' }} />
        <p>{t('activate.clientId')}</p>
        <Typography.Paragraph copyable code data-testid="app-client-id">
          {done.appCode}
        </Typography.Paragraph>
        {done.clientSecret ? (
          <SecretShownOnce secret={done.clientSecret} warning={t('activate.secretOnce')} testId="app-client-secret" />
        ) : (
          <p>{t('activate.noSecret')}</p>
        )}
      </div>
    );
  } else if (activate.isError) body = failure(activate.error);
  else if (app.isPending) body = <Spin />;
  else if (app.isError) body = failure(app.error);
  else {
    const a = app.data;
    body = (
      <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="app-activation">
        <p>{t('activate.explain', { app: a.appName })}</p>
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('activate.scopes')}>
            {a.scopes.map((s) => (
              <Tooltip key={s} title={scopeLabel(t, s)}>
                <Tag>{s}</Tag>
              </Tooltip>
            ))}
          </Descriptions.Item>
          <Descriptions.Item label={t('activate.redirectUris')}>
            <Space direction="vertical" size={0}>
              {a.redirectUris.map((u) => (
                <Typography.Text key={u} code>
                  {u}
                </Typography.Text>
              ))}
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('activate.kind')}>
            {t(a.confidential ? 'register.confidential' : 'register.public')}
          </Descriptions.Item>
        </Descriptions>
        <p className="muted">{t('activate.validUntil', { time: formatDateTime(a.expiresAt) })}</p>
        <Button
          type="primary"
          block
          loading={activate.isPending}
          onClick={() => activate.mutate()}
          data-testid="app-activate"
        >
          {t('activate.activate')}
        </Button>
      </Space>
    );
  }
  return (
    <PublicPage title={t('activate.title')} width={560}>
      {body}
    </PublicPage>
  );
}
