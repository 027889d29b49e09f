import { Alert, Avatar, Button, Result, Space, Spin } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '@portal/contracts';
import { PublicPage } from '../../../components/PublicPage';
import { ApiError, errorText } from '../../../lib/http';
import { logout, useSession } from '../../../lib/session';
import { SignInFirst } from '../components/SignInFirst';
import { consentToApp, denyApp, interactionQuery, type AppInteraction } from '../api/authorize';
import { scopeLabel, sameOriginTarget } from '../lib/scopes';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['apps', 'errors'];

/**
 * /third/auth-login and /third/v2/auth-login (public, light theme): an app asks to act for the user. Signed out, the
 * user signs in and comes back here; signed in, the page shows the app, what it asks for and whose account it gets,
 * and the answer sends the browser back through the provider to the app.
 */
export default function AppAuthorizePage() {
  const { t } = useTranslation('apps');
  const { signedIn } = useSession();
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  const uid = params.get('uid');
  const appid = params.get('appid');

  let body: React.ReactNode;
  if (!uid && !appid) body = <Failure code={ERRORS.APP_ID_REQUIRED.code} />;
  else if (!signedIn) body = <SignInFirst here={pathname + search} message={t('signInFirst')} />;
  else body = <Consent uid={uid} appid={appid} />;
  return (
    <PublicPage title={t('title')} width={480}>
      <div data-testid="app-authorize">{body}</div>
    </PublicPage>
  );
}

function Failure({ code, message }: { code: number; message?: string }) {
  const { t } = useTranslation('apps');
  const expired = code === ERRORS.APP_INTERACTION_EXPIRED.code;
  return (
    <Result
      status={expired ? 'warning' : 'error'}
      data-testid="app-authorize-failed"
      data-code={code}
      title={expired ? t('expired') : (errorText(code, message ?? '') ?? t('failed'))}
      subTitle={t('startAgain')}
    />
  );
}

function Consent({ uid, appid }: { uid: string | null; appid: string | null }) {
  const { t } = useTranslation('apps');
  const asked = useQuery(interactionQuery(uid, appid));
  const answer = useMutation({
    mutationFn: (yes: boolean) => (yes ? consentToApp(uid!) : denyApp(uid!)),
    // Back through the provider, which sends the browser on to the app's registered address.
    onSuccess: (done) => window.location.assign(sameOriginTarget(done.returnTo)),
  });

  if (asked.isPending) return <Spin />;
  if (asked.isError) {
    const e = asked.error;
    return <Failure code={e instanceof ApiError ? e.code : 0} message={e.message} />;
  }
  const app = asked.data;
  if (answer.isSuccess) return <Spin tip={t('returning')} data-testid="app-authorize-returning" />;
  // A refused answer (expired meanwhile, another browser, another user or no such account) ends the request here.
  if (answer.error) {
    const e = answer.error;
    return <Failure code={e instanceof ApiError ? e.code : 0} message={e.message} />;
  }
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <AppHeading app={app} />
      {app.uid ? (
        <>
          <p>{t('asks', { app: app.appName })}</p>
          <ul data-testid="app-authorize-scopes">
            {app.scopes.map((s) => (
              <li key={s} data-scope={s}>
                {scopeLabel(t, s)}
              </li>
            ))}
          </ul>
          <p className="muted">{t('within')}</p>
          <p data-testid="app-authorize-user">
            {t('signedInAs', { name: app.signedInAs.name, account: app.signedInAs.account })}{' '}
            <Button
              type="link"
              size="small"
              data-testid="app-authorize-switch"
              onClick={() => void logout({ returnHere: true })}
            >
              {t('notYou')}
            </Button>
          </p>
          {app.userMatches ? null : (
            <Alert
              type="error"
              showIcon
              data-testid="app-authorize-mismatch"
              message={errorText(ERRORS.APP_USER_MISMATCH.code, '')}
              description={app.loginHint ? t('askedFor', { user: app.loginHint }) : undefined}
            />
          )}
          <Space style={{ justifyContent: 'flex-end', width: '100%' }}>
            <Button
              data-testid="app-authorize-deny"
              loading={answer.isPending && answer.variables === false}
              disabled={answer.isPending}
              onClick={() => answer.mutate(false)}
            >
              {t('deny')}
            </Button>
            {app.userMatches ? (
              <Button
                type="primary"
                data-testid="app-authorize-allow"
                loading={answer.isPending && answer.variables === true}
                disabled={answer.isPending}
                onClick={() => answer.mutate(true)}
              >
                {t('authorize')}
              </Button>
            ) : null}
          </Space>
        </>
      ) : (
        <p data-testid="app-authorize-start-from-app">{t('startFromApp', { app: app.appName })}</p>
      )}
    </Space>
  );
}

/** The app's name beside its initial: the content policy loads images from the portal alone, so no outside logo. */
function AppHeading({ app }: { app: AppInteraction }) {
  return (
    <Space align="center">
      <Avatar size={40} aria-hidden>
        {app.appName.slice(0, 1).toUpperCase()}
      </Avatar>
      <strong data-testid="app-authorize-name">{app.appName}</strong>
    </Space>
  );
}
