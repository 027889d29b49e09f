import { createSecretKey, type KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import {
  API_BASE,
  OrgStatus,
  UserStatus,
  PERMISSION_WILDCARD,
  appScopesAllow,
  type ErrorName,
} from '@portal/contracts';
import type { Db } from './db.js';
import { AppError, fail } from './errors.js';
import { readInfoHeader } from './http.js';
import type { SessionCache } from './session-cache.js';
import { usersRepository, type UserWithOrgRow } from '../modules/users/users.repository.js';

export interface AuthContext {
  /** The signed-in user with organization and role, as loaded for this request. */
  user: UserWithOrgRow;
  userId: number;
  userCode: string;
  organizationId: number;
  orgType: number;
  roleId: number;
  sessionId: string;
  forceChangePassword: boolean;
  identityVerifiedUntil: Date | null;
}

/** An app's access token (OpenID provider): the user it acts for and the scopes it holds. */
export interface AppTokenContext {
  appId: number;
  appCode: string;
  grantId: string;
  scopes: Set<string>;
}

/** Looks up an app's opaque access token; undefined when the provider does not know it. */
export interface AppTokenVerifier {
  authenticate(token: string): Promise<(AppTokenContext & { auth: AuthContext }) | undefined>;
  /** Counts the call against the app's and the user's limits: 0, or the seconds to wait when over them. */
  admit(app: AppTokenContext, auth: AuthContext): number;
  /** Notes a finished call in the organization's log of app calls. */
  record(app: AppTokenContext, auth: AuthContext, call: string, statusCode: number): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
    /** Set when the caller is an app with an access token (its identity comes from the token alone). */
    appToken?: AppTokenContext;
  }
  interface FastifyContextConfig {
    /**
     * A permission code (`resource:action`) the caller's role must hold, or how to tell it from the request when
     * it depends on what is asked (e.g. one permission per order action), after the body is validated.
     */
    permission?: string | ((request: FastifyRequest) => string | Promise<string>);
    /**
     * Why every signed-in member may make this call, for routes without a `permission` (the caller's own account,
     * its menu, signing out). A private route declares one or the other: the server refuses to start otherwise.
     */
    everyMember?: string;
    /** The catalogue entry a missing permission answers, where the specification names one (1002 otherwise). */
    permissionRefusal?: ErrorName;
    /** The caller must have re-entered their password within the grace period (§4). */
    sensitive?: boolean;
    /** The catalogue entry a missing verification answers, where the specification names one (1014 otherwise). */
    reauthRefusal?: ErrorName;
    /** Reachable while the user still has to change a forced password. */
    allowForcedPasswordChange?: boolean;
    /** How the caller is authenticated: set where the authentication is installed, it documents the security. */
    authentication?: Authentication;
  }
}

/** A signed-in user's session, or a scanner's device token. */
export type Authentication = 'session' | 'device';

export class TokenService {
  // A KeyObject made once: passing raw bytes makes jose import the key on every call.
  private readonly key: KeyObject;
  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }
  sign(claims: { userCode: string; sessionId: string }): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userCode)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }
  /**
   * Verified tokens are remembered until they expire: a client presents the same token on every call,
   * and WebCrypto verification is a thread-pool round trip. Only the signature check is cached;
   * the session is still looked up on every request, so revocation applies at once.
   */
  private readonly verified = new Map<
    string,
    { userCode: string; sessionId: string; issuedAt: number; expiresAt: number }
  >();
  private static readonly CACHE_SIZE = 10_000;

  async verify(
    token: string,
  ): Promise<{ userCode: string; sessionId: string; issuedAt: number; expiresAt: number } | null> {
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.expiresAt > Date.now() / 1000) return hit;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number')
        return null;
      const claims = {
        userCode: payload.sub,
        sessionId: payload.sid,
        issuedAt: payload.iat ?? 0,
        expiresAt: payload.exp,
      };
      if (this.verified.size >= TokenService.CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, claims);
      return claims;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return null;
      throw err;
    }
  }
}

export function readAccessToken(request: FastifyRequest): string | undefined {
  const fromInfo = readInfoHeader(request).accessToken;
  if (typeof fromInfo === 'string' && fromInfo) return fromInfo;
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return undefined;
}

export interface AuthDeps {
  db: Db;
  tokens: TokenService;
  sessions: SessionCache;
  /** Apps' access tokens (opaque, not the portal's signed tokens) are accepted when given. */
  appTokens?: AppTokenVerifier;
}

/** The portal's own access tokens are signed JWTs; an app's token from the provider is opaque (no dots). */
function isAppToken(token: string | undefined): token is string {
  return typeof token === 'string' && token.length > 0 && !token.includes('.');
}

/** Resolves an access token to the caller; the catalogue's 401/402 answers when it cannot. */
export async function authenticateToken(
  deps: AuthDeps,
  token: string | undefined,
): Promise<{ auth: AuthContext; issuedAt: number }> {
  if (!token) fail('TOKEN_INVALID');
  const claims = await deps.tokens.verify(token);
  if (!claims) fail('TOKEN_INVALID');
  return { issuedAt: claims.issuedAt, auth: await authenticateSession(deps, claims.sessionId, claims.userCode) };
}

/**
 * The caller behind a live session. Every credential derived from a session (access token, upload grant) comes
 * through here, so whatever ends the session — logout, a password change or reset, a disabled user or
 * organization — ends the credential at the same moment.
 */
export async function authenticateSession(
  deps: Pick<AuthDeps, 'db' | 'sessions'>,
  sessionId: string,
  userCode: string,
): Promise<AuthContext> {
  const row = await deps.sessions.get(sessionId, () => usersRepository.findBySession(deps.db, sessionId));
  if (!row || row.user_code !== userCode) fail('TOKEN_INVALID');
  // Said before the ended session: disabling an organization ends its sessions, and its users are told why.
  if (row.org_status === OrgStatus.Disabled) fail('ORGANIZATION_DISABLED');
  if (row.revoked_at || new Date(row.expires_at) < new Date()) fail('SESSION_ENDED');
  if (row.status === UserStatus.Disabled) fail('SESSION_ENDED');
  return {
    user: row,
    userId: Number(row.id),
    userCode: row.user_code,
    organizationId: Number(row.organization_id),
    orgType: row.org_type,
    roleId: Number(row.role_id),
    sessionId,
    forceChangePassword: row.force_change_password,
    identityVerifiedUntil: row.identity_verified_until ? new Date(row.identity_verified_until) : null,
  };
}

/** The permission codes a role holds through its menu entries (the wildcard among them, if it has it). */
export function rolePermissions(deps: Pick<AuthDeps, 'db' | 'sessions'>, roleId: number): Promise<Set<string>> {
  return deps.sessions.permissions(roleId, async () => {
    const rows = await deps.db.query<{ p: string }>(
      `SELECT DISTINCT unnest(m.api_permissions) AS p FROM role_menus rm JOIN menus m ON m.id = rm.menu_id WHERE rm.role_id = $1`,
      [roleId],
    );
    return rows.map((r) => r.p);
  });
}

/** Whether a role holds a permission code (or the wildcard) through its menu entries. */
export async function roleHasPermission(
  deps: Pick<AuthDeps, 'db' | 'sessions'>,
  roleId: number,
  permission: string,
): Promise<boolean> {
  const granted = await rolePermissions(deps, roleId);
  return granted.has(PERMISSION_WILDCARD) || granted.has(permission);
}

/**
 * The permission checks services make on the object a call names (a share's resource, the role a user is given),
 * where the route cannot tell the permission before the object is read.
 */
export class Permissions {
  constructor(private readonly deps: Pick<AuthDeps, 'db' | 'sessions'>) {}
  held(auth: Pick<AuthContext, 'roleId'>): Promise<Set<string>> {
    return rolePermissions(this.deps, auth.roleId);
  }
  has(auth: Pick<AuthContext, 'roleId'>, permission: string): Promise<boolean> {
    return roleHasPermission(this.deps, auth.roleId, permission);
  }
  /** 1002 unless the caller's role holds the permission. */
  async require(auth: Pick<AuthContext, 'roleId'>, permission: string): Promise<void> {
    if (!(await this.has(auth, permission))) fail('NO_PERMISSION');
  }
}

export function registerAuthentication(scope: FastifyInstance, deps: AuthDeps) {
  // Every route of this scope is a session call (its security and 401 answers are documented from this).
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, authentication: 'session' };
    if (!route.config.permission && !route.config.everyMember?.trim())
      throw new Error(
        `${route.method.toString()} ${route.url} declares neither a permission nor why every member may call it`,
      );
  });
  scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const token = readAccessToken(request);
    if (deps.appTokens && isAppToken(token)) {
      const app = await deps.appTokens.authenticate(token);
      if (!app) fail('TOKEN_INVALID');
      request.auth = app.auth;
      request.appToken = { appId: app.appId, appCode: app.appCode, grantId: app.grantId, scopes: app.scopes };
      const wait = deps.appTokens.admit(request.appToken, app.auth);
      if (wait) {
        reply.header('retry-after', String(wait));
        fail('TOO_MANY_REQUESTS');
      }
      return;
    }
    const { auth, issuedAt } = await authenticateToken(deps, token);
    request.auth = auth;
    // Sliding renewal: past half its life the access token is replaced, so an active session without
    // "stay signed in" lasts while the user works and ends soon after they stop.
    if (Date.now() / 1000 - issuedAt > deps.tokens.ttlSeconds / 2) {
      reply.header('x-access-token', await deps.tokens.sign({ userCode: auth.userCode, sessionId: auth.sessionId }));
    }
  });

  // Every call an app made, answered or refused, goes into its organization's log.
  if (deps.appTokens) {
    const appTokens = deps.appTokens;
    scope.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.appToken) return;
      const call = (request.routeOptions.url ?? '').slice(API_BASE.length + 1);
      appTokens.record(request.appToken, request.auth, call, reply.statusCode);
    });
  }

  scope.addHook('preHandler', async (request: FastifyRequest) => {
    const cfg = request.routeOptions.config;
    // An app's token opens only the calls its scopes list, and then only what the user's role allows.
    if (request.appToken) {
      const call = (request.routeOptions.url ?? '').slice(API_BASE.length + 1);
      if (!appScopesAllow(request.appToken.scopes, call))
        throw new AppError('NO_PERMISSION', {}, null, 'appScopeRefused');
    }
    if (request.auth.forceChangePassword && !cfg.allowForcedPasswordChange)
      fail('NO_PERMISSION', {}, { forceChangePassword: true });
    const permission = typeof cfg.permission === 'function' ? await cfg.permission(request) : cfg.permission;
    if (permission && !(await roleHasPermission(deps, request.auth.roleId, permission)))
      fail(cfg.permissionRefusal ?? 'NO_PERMISSION');
    if (cfg.sensitive) {
      const until = request.auth.identityVerifiedUntil;
      if (!until || until < new Date()) fail(cfg.reauthRefusal ?? 'REAUTH_REQUIRED');
    }
  });
}
