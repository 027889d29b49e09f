import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useMatches, useRouteError } from 'react-router';
import { TopProgress } from '../components/TopProgress';
import { LoadFailed } from '../components/PageState';
import { LazyNotFound } from './statusRoutes';
import { setForcedLight } from '../lib/theme';
import { useSession } from '../lib/session';
import type { RouteHandle } from './routes';

/** Wraps every screen: progress bar, scroll to top, forced light theme, guest-only screens. */
export function RootShell() {
  const { pathname } = useLocation();
  const matches = useMatches();
  const { signedIn } = useSession();
  const handle = (matches[matches.length - 1]?.handle ?? {}) as RouteHandle;

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  useEffect(() => {
    setForcedLight(Boolean(handle.lightTheme));
  }, [handle.lightTheme]);

  if (handle.guestOnly && signedIn) return <Navigate to="/" replace />;
  return (
    <>
      <TopProgress />
      <Outlet />
    </>
  );
}

export function RootError() {
  const error = useRouteError() as { status?: number } | null;
  if (error?.status === 404) return <LazyNotFound />;
  console.error(error);
  return <LoadFailed />;
}
