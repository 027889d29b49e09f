import { Fragment, cloneElement, isValidElement, useCallback, type ReactElement, type ReactNode } from 'react';
import { access } from '@portal/contracts';
import { useSession } from '../lib/session';

type Required = readonly string[] | string;

/** The permission check of §6 bound to the signed-in user's permission list. */
export function useAccess() {
  const { permissions } = useSession();
  return useCallback((required: Required) => access(permissions, required), [permissions]);
}

/** The `data-permission` value of a guarded element: what a test looks for to tell guarded elements apart. */
export const permissionMark = (required: Required) => (typeof required === 'string' ? required : required.join(' '));

/**
 * Renders its children only when the user holds one of the permissions; otherwise nothing (or fallback). A single
 * element child carries `data-permission`; anything else is wrapped in a layout-neutral span that carries it.
 */
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
  if (!can(permission)) return <>{fallback}</>;
  const mark = permissionMark(permission);
  if (isValidElement(children) && children.type !== Fragment)
    return cloneElement(children as ReactElement<Record<string, unknown>>, { 'data-permission': mark });
  return (
    <span data-permission={mark} style={{ display: 'contents' }}>
      {children}
    </span>
  );
}
