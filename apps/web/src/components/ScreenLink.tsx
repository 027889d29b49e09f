import type { ReactNode } from 'react';
import { Link, matchPath } from 'react-router';
import { flattenScreens, type MenuItem } from '@portal/contracts';
import { useSession } from '../lib/session';

/** Whether the menu grants the screen at `to` (a path, its query and hash aside). */
export function grantsScreen(menus: readonly MenuItem[] | null, to: string): boolean {
  if (!menus) return false;
  const pathname = to.split(/[?#]/)[0] ?? to;
  return flattenScreens(menus).some((item) => item.path && matchPath({ path: item.path, end: true }, pathname));
}

/**
 * A link to another screen when the user's menu grants it, else its text: a role that cannot open the target is not
 * offered a link to the no-permission page.
 */
export function ScreenLink({ to, children, testId }: { to: string; children: ReactNode; testId?: string }) {
  const { menus } = useSession();
  if (grantsScreen(menus, to))
    return (
      <Link to={to} data-testid={testId}>
        {children}
      </Link>
    );
  return <span data-testid={testId}>{children}</span>;
}
