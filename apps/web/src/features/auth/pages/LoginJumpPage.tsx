import { useEffect, useRef, useState } from 'react';
import { Button, Result, Space, Spin } from 'antd';
import { Link, useLocation, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../../components/PublicPage';
import { ApiError, errorText } from '../../../lib/http';
import { hasToken, setPendingRedirect, signIn } from '../../../lib/session';
import { endPreviousSession, freeLogin } from '../api/freeLogin';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['errors'];

/** A page of this portal only (`/x`, never `//host` or `/\host`), else the start page. */
export function portalPath(to: string | null): string {
  return to && to.startsWith('/') && !to.startsWith('//') && !to.includes('\\') ? to : '/';
}

/**
 * /login-jump-page/{sign} (public, light theme): the hop from the scanner's desktop software into the signed-in
 * portal. The software asks for a one-time sign with its own session (`user/free-login/sign`, valid a few minutes)
 * and opens this page with it and, optionally, `?to=` a page of the portal; the browser signs in as that user and
 * goes there. A session the browser had before is ended.
 */
export default function LoginJumpPage() {
  const { t } = useTranslation('auth');
  const { id = '' } = useParams();
  const { search } = useLocation();
  const [failure, setFailure] = useState<ApiError | Error | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // The sign works once: a render done twice must not spend it twice.
    if (started.current) return;
    started.current = true;
    const to = portalPath(new URLSearchParams(search).get('to'));
    void (async () => {
      try {
        const pair = await freeLogin(id);
        if (hasToken()) await endPreviousSession();
        setPendingRedirect(to === '/' ? null : { url: to, userCode: null });
        signIn(pair, false, '/');
      } catch (e) {
        setFailure(e instanceof Error ? e : new Error(String(e)));
      }
    })();
  }, [id, search]);

  return (
    <PublicPage title={t('jump.title')}>
      <div data-testid="login-jump">
        {failure ? (
          <Result
            status="warning"
            data-testid="login-jump-failed"
            data-code={failure instanceof ApiError ? failure.code : 0}
            title={
              failure instanceof ApiError
                ? (errorText(failure.code, failure.message) ?? t('jump.failed'))
                : t('jump.failed')
            }
            subTitle={t('jump.again')}
            extra={
              <Link to="/login">
                <Button type="primary">{t('jump.signIn')}</Button>
              </Link>
            }
          />
        ) : (
          <Space>
            <Spin />
            <span>{t('jump.signingIn')}</span>
          </Space>
        )}
      </div>
    </PublicPage>
  );
}
