import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { OWN_SPACE_MENU } from '@portal/contracts';
import { clearPendingRedirect, peekPendingRedirect, useSession } from '../lib/session';
import { grantedScreens } from './screens';
import { pendingInvitationRedirect } from '../features/partners/lib/invitation';

/** The hidden routing screen behind `/`: the page the user left at logout, else the dashboard. */
export function RedirectPage() {
  const { user, menus } = useSession();
  const ready = Boolean(user && menus);
  const pending = user ? peekPendingRedirect(user.userCode) : null;
  // Forgotten after the navigation to it (the Navigate's own effect runs first), never while rendering: a render
  // that is redone before then must find it again.
  useEffect(() => {
    if (ready) clearPendingRedirect();
  }, [ready]);
  if (!user || !menus) return null;
  if (pending) return <Navigate to={pending} replace />;
  // A laboratory that registered through a partner invitation confirms it first.
  const invitation = pendingInvitationRedirect(user.organization.type);
  if (invitation) return <Navigate to={invitation} replace />;
  const screens = grantedScreens(menus);
  const target = screens.find((s) => s.item.component === 'dashboard') ?? screens[0];
  return <Navigate to={target?.path ?? OWN_SPACE_MENU.path ?? '/own-space'} replace />;
}
