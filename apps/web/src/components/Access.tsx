import { useCallback, type ReactNode } from 'react';
import { access } from '@portal/contracts';
import { useSession } from '../lib/session';

type Required = readonly string[] | string;

/** The permission check of §6 bound to the signed-in user's permission list. */
export function useAccess() {
  const { permissions } = useSession();
  return useCallback((required: Required) => access(permissions, required), [permissions]);
}

/** Renders its children only when the user holds one of the permissions; otherwise nothing (or fallback). */
export function Access({
  permission,
  children,
  fallback = null,
}: {
  permission: Required;
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const can = useAccess();
  return <>{can(permission) ? children : fallback}</>;
}
