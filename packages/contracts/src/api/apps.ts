import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { zBool, zEmail, zRequiredText, zText } from './fields.js';

/**
 * Apps (docs/product-decisions.md, "Apps"; docs/api.md, "Apps: OAuth 2.0 / OpenID Connect"): the scopes an app may
 * ask for. `openid`, `profile` and `offline_access` are OpenID Connect's own; the others open portal calls.
 */
export const APP_SCOPES = [
  'openid',
  'profile',
  'offline_access',
  'cases:read',
  'files:read',
  'orders:read',
  'orders:write',
] as const;
export type AppScope = (typeof APP_SCOPES)[number];

/**
 * The calls (paths under /api/v2) each scope opens to an app's access token. An app's call also needs the permission
 * the granting user's role holds for it: a token never does more than its user could.
 */
export const APP_SCOPE_CALLS: Record<AppScope, readonly string[]> = {
  openid: [],
  profile: [],
  offline_access: [],
  'cases:read': ['case/list', 'case/detail', 'case/annotation/list'],
  'files:read': ['file/downloadGrant'],
  'orders:read': ['order/list', 'order/detail', 'order/parties', 'order/annotation/list', 'order/marginLine/list'],
  'orders:write': ['order/action'],
};

/** Whether an access token with these scopes may make this call (a path under /api/v2, without its leading slash). */
export function appScopesAllow(scopes: Iterable<string>, call: string): boolean {
  for (const scope of scopes)
    if ((APP_SCOPE_CALLS as Record<string, readonly string[] | undefined>)[scope]?.includes(call)) return true;
  return false;
}

export const APP_LIMITS = {
  nameChars: 60,
  urlChars: 500,
  redirectUris: 10,
} as const;

export const APP_STATUSES = ['active', 'suspended'] as const;

const zAppCode = zRequiredText(FIELD_MAX.code);
const zRedirectUris = z.array(zRequiredText(APP_LIMITS.urlChars)).min(1).max(APP_LIMITS.redirectUris);
const zScopes = z.array(z.enum(APP_SCOPES)).min(1).max(APP_SCOPES.length);

export const AppCreateBody = z.object({
  name: zRequiredText(APP_LIMITS.nameChars),
  logoUrl: zText(APP_LIMITS.urlChars).optional(),
  redirectUris: zRedirectUris,
  scopes: zScopes,
  contactEmail: zEmail,
  /** A confidential app (a server that keeps a secret) gets a client secret; a public one (a browser or native app) does not. */
  confidential: zBool.default(true),
});
export type AppCreateBody = z.infer<typeof AppCreateBody>;

export const AppEditBody = z.object({
  appCode: zAppCode,
  name: zRequiredText(APP_LIMITS.nameChars).optional(),
  logoUrl: zText(APP_LIMITS.urlChars).optional(),
  redirectUris: zRedirectUris.optional(),
  scopes: zScopes.optional(),
  contactEmail: zEmail.optional(),
});
export type AppEditBody = z.infer<typeof AppEditBody>;

export const AppCodeOnlyBody = z.object({ appCode: zAppCode });

export const RegisteredApp = z.object({
  /** The app's client_id. */
  appCode: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  redirectUris: z.array(z.string()),
  scopes: z.array(z.string()),
  contactEmail: z.string(),
  confidential: z.boolean(),
  status: z.enum(APP_STATUSES),
  /** Users with a live authorization of the app. */
  users: z.number(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type RegisteredApp = z.infer<typeof RegisteredApp>;
export const RegisteredAppList = z.object({ list: z.array(RegisteredApp) });

/** A new app with its client secret, shown this once (null for a public app). */
export const AppCreated = RegisteredApp.extend({ clientSecret: z.string().nullable() });

/** What the sign-in and consent page (/third/auth-login) was opened with. */
export const AppInteractionBody = z.object({
  uid: zText(FIELD_MAX.token).optional(),
  appid: zText(FIELD_MAX.code).optional(),
});

export const AppInteraction = z.object({
  uid: z.string().nullable(),
  appCode: z.string(),
  appName: z.string(),
  logoUrl: z.string().nullable(),
  /** The scopes the app asks for (none before an authorization request). */
  scopes: z.array(z.string()),
  /** The user the app asked for (`login_hint`), if any. */
  loginHint: z.string().nullable(),
  /** False when the app asked for another user than the one signed in. */
  userMatches: z.boolean(),
  /** Who is signed in: the page says whose account the app will use. */
  signedInAs: z.object({ name: z.string(), account: z.string() }),
});

export const AppInteractionUidBody = z.object({ uid: zRequiredText(FIELD_MAX.token) });

/** Where the browser goes next: back to the provider, which answers the app. */
export const AppInteractionDone = z.object({ returnTo: z.string() });
