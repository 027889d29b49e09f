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
  /** Partner management (§6): administrators hold both by default; others are told to ask one (2031). */
  PartnerView: 'partner:view',
  PartnerEdit: 'partner:edit',
  /** Revoking, mailing and reading the log of share links other members made. */
  ShareManage: 'share:manage',
  /** Adding and removing the contacts who receive the organization's order mails. */
  ContactManage: 'contact:manage',
  /** The update log's entries and the improvement programme's counts (super administrator). */
  SoftwareManage: 'software:manage',
  /** Chat (docs/product-decisions.md, "Chat"): reading, writing, and the administrators' export. */
  ChatView: 'chat:view',
  ChatSend: 'chat:send',
  ChatExport: 'chat:export',
  /** Webhooks (docs/product-decisions.md, "Webhooks"): the organization's endpoints, their secrets and deliveries. */
  WebhookManage: 'webhook:manage',
  /** Apps (docs/product-decisions.md, "Apps"): registering, changing and suspending OAuth apps (super administrator). */
  AppManage: 'app:manage',
  /** Reading which apps called the API for the organization's members (its administrators). */
  AppAudit: 'app:audit',
  /** Reading and exporting the patient-data access log (clinic and laboratory administrators). */
  AuditRead: 'audit:read',
  /** Erasing a patient's data on request, and the legal holds that stop it (clinic administrators). */
  PatientErase: 'patient:erase',
} as const;
export type Permission = (typeof Permission)[keyof typeof Permission];
