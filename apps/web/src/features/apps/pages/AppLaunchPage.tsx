import { useEffect } from 'react';
import { Button, Result, Space, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../../components/PublicPage';
import { ApiError } from '../../../lib/http';
import { useSession } from '../../../lib/session';
import { launchQuery } from '../api/activate';
import { SignInFirst } from '../components/SignInFirst';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['apps', 'errors'];

/**
 * /as-auth-redirect/{appCode} (public, light theme): the portal opens an app for its signed-in user, at the address
 * the app registered (OpenID Connect's third-party initiated login); the app then asks for authorization, which the
 * user answers on the consent page. Signed out, the user signs in first and comes back here.
 */
export default function AppLaunchPage() {
  const { t } = useTranslation('apps');
  const { signedIn } = useSession();
  const { pathname, search } = useLocation();
  const { id = '' } = useParams();
  return (
    <PublicPage title={t('launch.title')} width={480}>
      <div data-testid="app-launch">
        {signedIn ? (
          <Launch appCode={id} />
        ) : (
          <SignInFirst here={pathname + search} message={t('launch.signInFirst')} />
        )}
      </div>
    </PublicPage>
  );
}

function Launch({ appCode }: { appCode: string }) {
  const { t } = useTranslation('apps');
  const launch = useQuery(launchQuery(appCode));
  // The server answers only the app's registered launch address.
  useEffect(() => {
    if (launch.data) window.location.assign(launch.data.url);
  }, [launch.data]);
  if (launch.isError)
    return (
      <Result
        status="warning"
        data-testid="app-launch-failed"
        data-code={launch.error instanceof ApiError ? launch.error.code : 0}
        title={t('launch.failed')}
        extra={
          <Link to="/">
            <Button type="primary">{t('launch.back')}</Button>
          </Link>
        }
      />
    );
  return (
    <Space>
      <Spin />
      {launch.data ? (
        <span data-testid="app-launch-opening">{t('launch.opening', { app: launch.data.appName })}</span>
      ) : null}
    </Space>
  );
}
