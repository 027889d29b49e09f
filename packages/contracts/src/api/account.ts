import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { LANGUAGES } from '../enums.js';
import { zAccount, zEmail, zIntOf, zPhone, zRequiredText, zText, zToken } from './fields.js';
import { UserInfo } from './auth.js';

/** Own space → account info: the user as `user/info` has it, with an email change waiting for its confirmation. */
export const UserDetail = UserInfo.extend({ pendingEmail: z.string().nullable() });
export type UserDetail = z.infer<typeof UserDetail>;

/** `user/edit`: the account info fields a user changes themselves. */
export const EditUserBody = z.object({
  displayName: zRequiredText(FIELD_MAX.name),
  nickname: zText(FIELD_MAX.name).optional(),
  phone: zPhone.optional().or(z.literal('')),
  gender: zIntOf(1, 2).optional(),
  language: z.enum(LANGUAGES).optional(),
});
export type EditUserBody = z.infer<typeof EditUserBody>;

export const EditEmailBody = z.object({ email: zEmail });
export const EditEmailResult = z.object({ pendingEmail: z.string() });
export const EmailChangeConfirmBody = z.object({ id: zToken });
export const EmailChangeConfirmResult = z.object({ email: z.string() });

/** `user/edit_username`: the account name can be changed once. */
export const EditUsernameBody = z.object({ account: zAccount });

/** Avatars: cropped in the browser, checked by content on the server. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const EditAvatarResult = z.object({ avatar: z.string() });

/** Own space → auth management: third-party applications the user authorized. */
export const AuthorizedApp = z.object({
  appCode: z.string(),
  appName: z.string(),
  scopes: z.array(z.string()),
  authorizedAt: z.string(),
  /** When an app last called the API with a token of this authorization (noted at most once a minute). */
  lastUsedAt: z.string().nullable(),
  /** The app's client ID when the portal can open it (`/as-auth-redirect/{clientId}`): it registered a launch address. */
  launchClientId: z.string().nullable(),
});
export const AuthorizedAppList = z.object({ list: z.array(AuthorizedApp) });
export const AppCodeBody = z.object({ appCode: zRequiredText(FIELD_MAX.code) });

/** Own space → contacts (spec §5: a contact needs a user name and an email). */
export const CONTACT_STATUSES = ['pending', 'verified', 'expired'] as const;
export const CompanyContact = z.object({
  contactCode: z.string(),
  userName: z.string(),
  email: z.string(),
  status: z.enum(CONTACT_STATUSES),
  createdAt: z.string(),
  verifiedAt: z.string().nullable(),
  linkExpiresAt: z.string(),
});
export type CompanyContact = z.infer<typeof CompanyContact>;
export const CompanyContactList = z.object({ list: z.array(CompanyContact) });
export const AddContactBody = z.object({ userName: zRequiredText(FIELD_MAX.name), email: zEmail });
export type AddContactBody = z.infer<typeof AddContactBody>;
export const ContactCodeBody = z.object({ contactCode: zRequiredText(FIELD_MAX.code) });
export const ContactVerifyBody = z.object({ verifyCode: zToken });
export const ContactVerifyResult = z.object({ organizationName: z.string(), email: z.string() });
