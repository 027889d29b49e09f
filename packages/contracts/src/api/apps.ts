import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { zBool, zEmail, zIntIn, zRequiredText, zText } from './fields.js';

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

/** What each scope lets an app do, for the API document (the consent page says it in the user's language). */
export const APP_SCOPE_SUMMARY: Record<AppScope, string> = {
  openid: "Know which portal user signed in (the ID token's sub)",
  profile: "The user's name, account name and language",
  offline_access: 'A refresh token: keep working while the user is away, until they revoke the app',
  'cases:read': "Read the user's organization's cases",
  'files:read': "Download the scan files of the organization's cases",
  'orders:read': "Read the organization's orders",
  'orders:write': 'Act on orders for the user (order/action)',
};

/** The scopes that open a call to an app's token (a path under /api/v2, without its leading slash). */
export function appScopesFor(call: string): AppScope[] {
  return APP_SCOPES.filter((scope) => APP_SCOPE_CALLS[scope].includes(call));
}

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
  /** How long a mailed activation link may be used. */
  activationDays: 7,
} as const;

/** `pending`: registered, waiting for its developer to activate it from the mailed link (its requests refused). */
export const APP_STATUSES = ['pending', 'active', 'suspended'] as const;

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
  /**
   * Where the portal opens the app for a signed-in user (`/as-auth-redirect/{appCode}`, OpenID Connect's
   * initiate_login_uri): the app then starts its own authorization request.
   */
  launchUrl: zText(APP_LIMITS.urlChars).optional(),
  /**
   * Mail the contact a one-time activation link instead of answering the client secret here: the app waits as
   * `pending` until its developer opens the link, which shows them the client ID and secret once.
   */
  sendActivationLink: zBool.default(false),
});
export type AppCreateBody = z.infer<typeof AppCreateBody>;

export const AppEditBody = z.object({
  appCode: zAppCode,
  name: zRequiredText(APP_LIMITS.nameChars).optional(),
  logoUrl: zText(APP_LIMITS.urlChars).optional(),
  redirectUris: zRedirectUris.optional(),
  scopes: zScopes.optional(),
  contactEmail: zEmail.optional(),
  /** An empty text removes it. */
  launchUrl: zText(APP_LIMITS.urlChars).optional(),
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
  launchUrl: z.string().nullable(),
  /** Until when the mailed activation link of a pending app may be used. */
  activationExpiresAt: z.string().nullable(),
});
export type RegisteredApp = z.infer<typeof RegisteredApp>;
export const RegisteredAppList = z.object({ list: z.array(RegisteredApp) });

/** A new app with its client secret, shown this once (null for a public app). */
export const AppCreated = RegisteredApp.extend({
  clientSecret: z.string().nullable(),
  /** The address the activation link was mailed to (the secret is then not answered here). */
  activationSentTo: z.string().nullable(),
});

/** A mailed activation link's sign (`/activate-app/{sign}`). */
export const AppSignBody = z.object({ sign: zRequiredText(FIELD_MAX.token) });

/** What `/activate-app/{sign}` shows before its developer activates the app. */
export const AppActivation = z.object({
  appName: z.string(),
  scopes: z.array(z.string()),
  redirectUris: z.array(z.string()),
  confidential: z.boolean(),
  /** Until when the link may be used. */
  expiresAt: z.string(),
});

/** The activated app's credentials, shown this once. */
export const AppActivated = z.object({
  appCode: z.string(),
  appName: z.string(),
  clientSecret: z.string().nullable(),
});

/** Where `/as-auth-redirect/{appCode}` sends the browser: the app's registered launch address with iss and login_hint. */
export const AppLaunch = z.object({ url: z.string(), appName: z.string() });

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

/** How long an organization's log of app calls is kept. */
export const APP_CALL_LOG_DAYS = 90;

export const AppCallLogBody = z.object({
  /** One app's calls only. */
  appCode: zText(FIELD_MAX.code).optional(),
  pageNum: zIntIn(1, 10_000).default(1),
  pageSize: zIntIn(1, 100).default(20),
});

/** One minute's calls of one app for one member: how many, and how many were refused. */
export const AppCallLogEntry = z.object({
  /** The minute's start. */
  minute: z.string(),
  appCode: z.string(),
  appName: z.string(),
  userCode: z.string(),
  userName: z.string(),
  account: z.string(),
  /** The call, a path under /api/v2. */
  call: z.string(),
  calls: z.number(),
  refused: z.number(),
});
export const AppCallLog = z.object({ total: z.number(), list: z.array(AppCallLogEntry) });
