import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoading } from '../components/PageState';
import { logout, useSession } from '../lib/session';
import { loadProfile } from './profile';

/** Screens needing a token: sign-in check, profile + menu loading, the forced password change. */
export function AuthGate() {
  const { signedIn, menus, user } = useSession();
  const { pathname } = useLocation();
  useEffect(() => {
    if (!signedIn) void logout({ returnHere: true });
    else if (!menus) void loadProfile();
  }, [signedIn, menus]);
  if (!signedIn || !menus || !user) return <PageLoading />;
  if (user.forceChangePassword && pathname !== '/force-change-password')
    return <Navigate to="/force-change-password" replace />;
  if (!user.forceChangePassword && pathname === '/force-change-password') return <Navigate to="/" replace />;
  return <Outlet />;
}
