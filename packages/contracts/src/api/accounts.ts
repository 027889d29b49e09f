import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { zAccount, zEmail, zIntIn, zIntOf, zPage, zPhone, zRequiredText, zText } from './fields.js';

/** Users of an organization as its administrator manages them (Account → Users). */
export const USER_SORT_FIELDS = ['createdAt', 'account', 'displayName'] as const;

const zCodeList = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(zRequiredText(FIELD_MAX.code)).min(1).max(100),
);

export const UserListQuery = z.object({
  ...zPage,
  /** The beginning of the display name, account, email or phone number. */
  keyword: zText(FIELD_MAX.email).optional(),
  status: zIntOf(0, 1, 2).optional(),
  roleCode: zText(FIELD_MAX.code).optional(),
  /** Super administrator only: one organization's users. */
  organizationCode: zText(FIELD_MAX.code).optional(),
  sortField: z.enum(USER_SORT_FIELDS).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc']).default('desc'),
});
export type UserListQuery = z.infer<typeof UserListQuery>;

export const ManagedUser = z.object({
  userCode: z.string(),
  account: z.string(),
  displayName: z.string(),
  nickname: z.string().nullable(),
  email: z.string(),
  phone: z.string().nullable(),
  gender: z.number().nullable(),
  /** 0 inactivated (has not set a password yet), 1 activated, 2 disabled. */
  status: z.number(),
  role: z.object({ code: z.string(), name: z.string(), builtIn: z.boolean() }),
  organization: z.object({ code: z.string(), name: z.string(), type: z.number() }),
  /** Holds the organization's administrator role. */
  administrator: z.boolean(),
  self: z.boolean(),
  /**
   * Whether the caller may edit, disable, reset or delete this user: no user whose role holds a permission the
   * caller does not hold (the screen offers those actions only when true).
   */
  manageable: z.boolean(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ManagedUser = z.infer<typeof ManagedUser>;
export const ManagedUserList = z.object({ total: z.number(), list: z.array(ManagedUser) });

/** `user/save_or_update`: adds a user (no userCode) or edits one. */
export const SaveUserBody = z.object({
  userCode: zText(FIELD_MAX.code).optional(),
  account: zAccount,
  displayName: zRequiredText(FIELD_MAX.name),
  nickname: zText(FIELD_MAX.name).optional(),
  email: zEmail,
  phone: zPhone.optional().or(z.literal('')),
  gender: zIntOf(1, 2).optional(),
  roleCode: zRequiredText(FIELD_MAX.code),
  /** Super administrator only, when adding: the organization the user belongs to (default: the caller's). */
  organizationCode: zText(FIELD_MAX.code).optional(),
});
export type SaveUserBody = z.infer<typeof SaveUserBody>;

export const UserCodesBody = z.object({ userCodes: zCodeList });
export const UserCodeBody = z.object({ userCode: zRequiredText(FIELD_MAX.code) });

/**
 * Sign-in identifiers that match more than one user (kept from before account names, emails and phone numbers were
 * one namespace): sign-in refuses them until one of the users changes theirs (super administrator).
 */
export const SignInDispute = z.object({
  /** The normalized identifier: a folded account name or email, or a phone number in E.164. */
  identifier: z.string(),
  kind: z.enum(['account', 'email', 'phone']),
  foundAt: z.string(),
  users: z.array(
    z.object({ userCode: z.string(), account: z.string(), displayName: z.string(), organizationName: z.string() }),
  ),
});
export type SignInDispute = z.infer<typeof SignInDispute>;
export const SignInDisputeList = z.object({ list: z.array(SignInDispute) });

/** `user/checkUsernameExist` also answers for an email address or a phone number, as a form is typed. */
export const CheckTakenBody = z
  .object({ account: zAccount.optional(), email: zEmail.optional(), phone: zPhone.optional() })
  .refine((b) => b.account !== undefined || b.email !== undefined || b.phone !== undefined, {
    message: 'required',
    path: ['account'],
  });
export type CheckTakenBody = z.infer<typeof CheckTakenBody>;
export const CheckTakenResult = z.object({ exists: z.boolean() });

/** Roles (Account → Role Management). */
export const ManagedRole = z.object({
  roleCode: z.string(),
  name: z.string(),
  /** Built in for an organization type (translated by the web app from `name`); read-only. */
  builtIn: z.boolean(),
  orgType: z.number(),
  /** The organization that made it; null for roles every organization of the type shares. */
  organizationCode: z.string().nullable(),
  defaultForRegistered: z.boolean(),
  users: z.number(),
  createdAt: z.string(),
});
export type ManagedRole = z.infer<typeof ManagedRole>;
export const RoleListQuery = z.object({ ...zPage, keyword: zText(FIELD_MAX.name).optional() });
export type RoleListQuery = z.infer<typeof RoleListQuery>;
export const RoleList = z.object({ total: z.number(), list: z.array(ManagedRole) });
export const AssignableRoles = z.object({ list: z.array(ManagedRole) });

export const SaveRoleBody = z.object({
  roleCode: zText(FIELD_MAX.code).optional(),
  name: zRequiredText(FIELD_MAX.name),
  /** Super administrator only, when adding a role every organization of a type shares. */
  orgType: zIntIn(1, 5).optional(),
});
export type SaveRoleBody = z.infer<typeof SaveRoleBody>;
export const RoleCodeBody = z.object({ roleCode: zRequiredText(FIELD_MAX.code) });
export const RoleCodesBody = z.object({ roleCodes: zCodeList });
export const AllotRoleMenusBody = z.object({
  roleCode: zRequiredText(FIELD_MAX.code),
  /** Ticked screens and buttons; parents of ticked entries are added. */
  menuCodes: z.array(zRequiredText(FIELD_MAX.code)).max(500),
});

/** The whole menu tree a role may be given, screens (type 1) and buttons (type 2). */
export interface MenuNode {
  code: string;
  name: string;
  type: 1 | 2;
  apiPermissions: string[];
  children: MenuNode[];
}
/** Recursive, so it is a named component of the OpenAPI document that its children refer to. */
export const MenuNodeSchema: z.ZodType<MenuNode> = z
  .lazy(() =>
    z.object({
      code: z.string(),
      name: z.string(),
      type: z.union([z.literal(1), z.literal(2)]),
      apiPermissions: z.array(z.string()),
      children: z.array(MenuNodeSchema),
    }),
  )
  .meta({ id: 'MenuNode' });
export const MenuTreeQuery = z.object({ orgType: zIntIn(1, 5).optional() });
export const MenuTree = z.object({ list: z.array(MenuNodeSchema) });
export const RoleMenus = z.object({ menuCodes: z.array(z.string()) });

/** Organizations (Account → Organizations, super administrator). */
export const ORGANIZATION_SORT_FIELDS = ['createdAt', 'name'] as const;
export const OrganizationListQuery = z.object({
  ...zPage,
  /** The beginning of the name or the code. */
  keyword: zText(FIELD_MAX.name).optional(),
  type: zIntIn(1, 5).optional(),
  /** 1 enabled, 2 disabled, 3 closed by its administrator (restorable until purged). */
  status: zIntOf(1, 2, 3).optional(),
  region: z.enum(['us', 'eu', 'uk']).optional(),
});
export type OrganizationListQuery = z.infer<typeof OrganizationListQuery>;
export const ManagedOrganization = z.object({
  organizationCode: z.string(),
  name: z.string(),
  type: z.number(),
  region: z.string(),
  /** 1 enabled, 2 disabled, 3 closed. */
  status: z.number(),
  reviewStatus: z.number(),
  users: z.number(),
  storageUsedBytes: z.number(),
  createdAt: z.string(),
  /** When a closed organization was closed, and from when it is purged (no longer restorable). */
  closedAt: z.string().nullable(),
  purgeAfter: z.string().nullable(),
});
export type ManagedOrganization = z.infer<typeof ManagedOrganization>;
export const ManagedOrganizationList = z.object({ total: z.number(), list: z.array(ManagedOrganization) });
export const OrganizationCodesBody = z.object({ organizationCodes: zCodeList });
