import { PERMISSION_WILDCARD } from './constants.js';

/**
 * The one permission decision (§6): a user passes when their list holds the wildcard
 * or any one of the required permissions. An empty or missing required list means no access.
 */
export function access(
  userPermissions: readonly string[] | undefined | null,
  required: readonly string[] | string | undefined | null,
): boolean {
  const needed = typeof required === 'string' ? [required] : required;
  if (!needed || needed.length === 0) return false;
  if (!userPermissions || userPermissions.length === 0) return false;
  if (userPermissions.includes(PERMISSION_WILDCARD)) return true;
  return needed.some((p) => userPermissions.includes(p));
}

/** Permission codes, `resource:action`. Screens and buttons in the menu carry them as apiPermissions. */
export const Permission = {
  DashboardView: 'dashboard:view',
  OwnSpaceView: 'ownspace:view',
  UserView: 'user:view',
  UserEdit: 'user:edit',
  RoleView: 'role:view',
  RoleEdit: 'role:edit',
  OrganizationView: 'organization:view',
  OrganizationReview: 'organization:review',
  OrganizationManage: 'organization:manage',
  OutboxView: 'outbox:view',
  CompanyEdit: 'company:edit',
  CompanyClose: 'company:close',
  OrganizationRestore: 'organization:restore',
  /** The update log's entries and the improvement programme's counts (super administrator). */
  SoftwareManage: 'software:manage',
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];
