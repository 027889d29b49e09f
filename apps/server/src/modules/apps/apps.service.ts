import { randomBytes } from 'node:crypto';
import {
  APP_CALL_LOG_DAYS,
  APP_LIMITS,
  APP_SCOPES,
  OrgStatus,
  UserStatus,
  type AppCreateBody,
  type AppEditBody,
  type RegisteredApp,
} from '@portal/contracts';
import type { Config } from '../../config.js';
import type { AuthContext } from '../../platform/auth.js';
import { newCode, sha256 } from '../../platform/crypto.js';
import type { Db, Queryable } from '../../platform/db.js';
import type { Mailer } from '../../platform/mail.js';
import { fail, invalidField } from '../../platform/errors.js';
import { AccountService } from '../users/account.service.js';
import { appsRepository as repo, type AppListRow, type AppRow } from './apps.repository.js';
import type { AppCallLog } from './app-calls.js';
import { appCallsRepository } from './app-calls.repository.js';
import { secretHash, type OpenIdProvider } from './openid-provider.js';

/** A request parameter the provider kept, as text. */
const PROVIDER_ID = /^[A-Za-z0-9_-]{1,200}$/;
const param = (v: unknown) => (typeof v === 'string' ? v : '');

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

function appView(a: AppListRow | AppRow): RegisteredApp {
  return {
    appCode: a.code,
    name: a.name,
    logoUrl: a.logo_url,
    redirectUris: a.redirect_uris,
    scopes: a.scopes,
    contactEmail: a.contact_email,
    confidential: a.secret_hash !== null,
    status: a.status,
    users: 'users' in a ? Number(a.users) : 0,
    lastUsedAt: 'last_used_at' in a ? a.last_used_at : null,
    createdAt: a.created_at,
    launchUrl: a.launch_url,
    activationExpiresAt: a.status === 'pending' ? a.activation_expires_at : null,
  };
}

const newSecret = () => `cs_${randomBytes(32).toString('base64url')}`;

/** What an app's access token stands for: its user (as a signed-in call sees them) and what the token allows. */
export interface AppTokenAuth {
  auth: AuthContext;
  appId: number;
  appCode: string;
  grantId: string;
  scopes: Set<string>;
}

/**
 * Apps (docs/product-decisions.md, "Apps"): the super administrator's register of OAuth apps, the sign-in and consent
 * interaction the provider hands to the portal, and the app tokens the API accepts.
 */
/** Where access tokens' meanings are kept between calls (the session cache: cleared on every revocation). */
export interface AppTokenCache {
  appToken<T>(token: string, load: () => Promise<{ value: T; expiresAt: number } | undefined>): Promise<T | undefined>;
}

export class AppsService {
  /** When this process last noted each grant's use (the table keeps it to the minute). */
  private readonly usedAt = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly oidc: OpenIdProvider,
    private readonly cache: AppTokenCache,
    private readonly mailer: Mailer,
    private readonly calls: AppCallLog,
  ) {}

  /**
   * An exact address the portal may send a browser to for an app (a redirect or its launch address): https, or http
   * on the loopback address where allowed; no fragment, credentials or wildcard.
   */
  private checkAppAddress(raw: string, field: string): string {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return invalidField(field, 'appRedirectUriInvalid');
    }
    const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
    if (url.hash || raw.includes('#') || url.username || url.password || raw.includes('*'))
      invalidField(field, 'appRedirectUriInvalid');
    if (url.protocol !== 'https:' && !(loopbackHttp && this.config.oauthAllowLoopbackRedirects))
      invalidField(field, 'appRedirectUriInvalid');
    return raw;
  }

  private checkRedirectUris(uris: string[]): string[] {
    uris.forEach((raw, i) => this.checkAppAddress(raw, `redirectUris.${i}`));
    return [...new Set(uris)];
  }

  /** The launch address; an empty text means none. */
  private checkLaunchUrl(raw: string | undefined): string | null {
    return raw ? this.checkAppAddress(raw, 'launchUrl') : null;
  }

  /** Mails the contact a new one-time activation link (the previous one, if any, stops working); answers its outbox id. */
  private mailActivation(app: { name: string; contactEmail: string }, sign: string, language: string) {
    return this.mailer.send({
      to: app.contactEmail,
      language,
      template: 'appActivation',
      params: { app: app.name, days: APP_LIMITS.activationDays },
      link: `${this.config.publicUrl}/activate-app/${sign}`,
      recipientName: '',
    });
  }

  private checkLogo(logoUrl: string | undefined): string | null {
    if (!logoUrl) return null;
    try {
      if (new URL(logoUrl).protocol === 'https:') return logoUrl;
    } catch {
      // refused below
    }
    return invalidField('logoUrl', 'paramInvalid');
  }

  async list() {
    return { list: (await repo.list(this.db)).map(appView) };
  }

  /**
   * Registers an app. Active at once with its secret answered here, or, with `sendActivationLink`, pending until its
   * developer opens the one-time link mailed to the contact (in the administrator's language), which shows them the
   * client ID and secret: the secret then never passes through the administrator.
   */
  async create(input: AppCreateBody, language: string) {
    const redirectUris = this.checkRedirectUris(input.redirectUris);
    const logoUrl = this.checkLogo(input.logoUrl);
    const launchUrl = this.checkLaunchUrl(input.launchUrl);
    const secret = input.confidential ? newSecret() : null;
    const sign = input.sendActivationLink ? randomBytes(32).toString('base64url') : null;
    const code = newCode('app');
    await repo.insert(this.db, {
      code,
      name: input.name,
      logoUrl,
      redirectUris,
      scopes: APP_SCOPES.filter((s) => input.scopes.includes(s)),
      contactEmail: input.contactEmail,
      // A pending confidential app keeps a secret nobody knows until its activation makes the one shown.
      secretHash: secret ? secretHash(secret) : null,
      launchUrl,
      activation: sign ? { hash: sha256(sign), days: APP_LIMITS.activationDays } : null,
    });
    const mailId = sign
      ? await this.mailActivation({ name: input.name, contactEmail: input.contactEmail }, sign, language)
      : null;
    const app = await repo.findByCode(this.db, code);
    return {
      app: { ...appView(app!), clientSecret: sign ? null : secret, activationSentTo: sign ? input.contactEmail : null },
      mailId,
    };
  }

  /** A new activation link for a pending app, mailed to its contact (answers the mail's outbox id too). */
  async sendActivation(appCode: string, language: string) {
    const app = await repo.findByCode(this.db, appCode);
    if (!app) fail('NOT_FOUND');
    if (app.status !== 'pending') fail('APP_STATUS_CONFLICT');
    const sign = randomBytes(32).toString('base64url');
    await repo.renewActivation(this.db, appCode, sha256(sign), APP_LIMITS.activationDays);
    const mailId = await this.mailActivation({ name: app.name, contactEmail: app.contact_email }, sign, language);
    return { app: appView((await repo.findByCode(this.db, appCode))!), mailId };
  }

  /** The pending app a mailed link names: 2021 when unknown or used, 2020 once expired. */
  private async pendingBySign(db: Queryable, sign: string, lock = false) {
    const app = await repo.findByActivation(db, sha256(sign), lock);
    if (!app) fail('INVALID_LINK');
    if (!app.link_live) fail('LINK_EXPIRED');
    return app;
  }

  /** What the activation page shows before its developer activates the app. */
  async activation(sign: string) {
    const app = await this.pendingBySign(this.db, sign);
    return {
      appName: app.name,
      scopes: app.scopes,
      redirectUris: app.redirect_uris,
      confidential: app.secret_hash !== null,
      expiresAt: app.activation_expires_at!,
    };
  }

  /** The developer activates the app: its link is used up and a confidential app's secret is made and shown once. */
  async activate(sign: string) {
    return this.db.transaction(async (tx) => {
      const app = await this.pendingBySign(tx, sign, true);
      const secret = app.secret_hash !== null ? newSecret() : null;
      await repo.activate(tx, app.code, secret ? secretHash(secret) : null);
      return { appCode: app.code, appName: app.name, clientSecret: secret };
    });
  }

  /**
   * Where the portal opens an app for its signed-in user (OpenID Connect's third-party initiated login): the app's
   * registered launch address with the issuer and the user as `login_hint`; the app then asks for authorization,
   * which the user answers on the consent page. Nothing but a registered address is ever answered.
   */
  async launch(auth: AuthContext, appCode: string) {
    const app = await repo.findByCode(this.db, appCode);
    if (!app || app.status !== 'active' || !app.launch_url) fail('NOT_FOUND');
    const url = new URL(app.launch_url);
    url.searchParams.set('iss', this.oidc.issuer);
    url.searchParams.set('login_hint', auth.user.account);
    return { url: url.toString(), appName: app.name };
  }

  async edit(input: AppEditBody) {
    await this.db.transaction(async (tx) => {
      const app = await repo.findByCode(tx, input.appCode, true);
      if (!app) fail('NOT_FOUND');
      await repo.update(tx, app.code, {
        name: input.name ?? app.name,
        logoUrl: input.logoUrl !== undefined ? this.checkLogo(input.logoUrl) : app.logo_url,
        redirectUris: input.redirectUris ? this.checkRedirectUris(input.redirectUris) : app.redirect_uris,
        scopes: input.scopes ? APP_SCOPES.filter((s) => input.scopes!.includes(s)) : app.scopes,
        contactEmail: input.contactEmail ?? app.contact_email,
        launchUrl: input.launchUrl !== undefined ? this.checkLaunchUrl(input.launchUrl) : app.launch_url,
      });
    });
    return appView((await repo.findByCode(this.db, input.appCode))!);
  }

  /**
   * A suspended app is unknown to the provider: its requests and its tokens are refused at once. A pending app waits
   * for its developer (2097): it is neither suspended nor resumed.
   */
  async setStatus(appCode: string, status: 'active' | 'suspended') {
    const app = await repo.findByCode(this.db, appCode);
    if (!app) fail('NOT_FOUND');
    if (!(await repo.setStatus(this.db, appCode, status))) fail('APP_STATUS_CONFLICT');
    return appView((await repo.findByCode(this.db, appCode))!);
  }

  /** Ends a grant in the provider: its codes, access and refresh tokens stop at once, on every process. */
  async revokeGrant(grantId: string) {
    await repo.revokeGrant(this.db, grantId);
  }

  /** Housekeeping: the provider's expired codes, tokens, sessions and interactions. */
  deleteExpired() {
    return repo.deleteExpired(this.db);
  }

  /**
   * The interaction the provider handed to /third/auth-login, answered 2095 once it is gone or answered. It is
   * opened only from the browser that started it (`browserUid`, its cookie): 2096 'Authorization failed' elsewhere.
   */
  private async openInteraction(uid: string, browserUid: string | undefined) {
    // An unknown interaction is answered without loading the provider (which makes its keys on a first load).
    if (!PROVIDER_ID.test(uid) || !(await repo.modelExists(this.db, 'Interaction', uid)))
      fail('APP_INTERACTION_EXPIRED');
    if (browserUid !== uid) fail('APP_AUTHORIZATION_FAILED');
    const provider = await this.oidc.provider();
    const interaction = await provider.Interaction.find(uid);
    if (!interaction || interaction.result) fail('APP_INTERACTION_EXPIRED');
    const clientId = param(interaction.params.client_id);
    const app = await repo.findByCode(this.db, clientId);
    if (!app || app.status !== 'active') fail('APP_INTERACTION_EXPIRED');
    return { interaction, app };
  }

  /**
   * The user the app asked for (`login_hint`) against the signed-in one: 411 'account does not exist on auth login'
   * when no account answers to it on this site, else whether it is the signed-in user.
   */
  private async hintedUserMatches(user: AuthContext['user'], hint: unknown): Promise<boolean> {
    if (AppsService.matchesHint(user, hint)) return true;
    if (!(await AccountService.accountExists(this.db, String(hint).trim()))) fail('AUTH_ACCOUNT_MISSING');
    return false;
  }

  private static matchesHint(user: AuthContext['user'], hint: unknown): boolean {
    if (typeof hint !== 'string' || !hint) return true;
    const h = hint.trim().toLowerCase();
    return [user.user_code, user.account, user.email].some((v) => typeof v === 'string' && v.toLowerCase() === h);
  }

  private static signedInAs(auth: AuthContext) {
    return { name: auth.user.display_name || auth.user.account, account: auth.user.account };
  }

  /** What the consent page shows: the app, the scopes it asks for, and whether the signed-in user is the one it wants. */
  async interaction(auth: AuthContext, body: { uid?: string; appid?: string }, browserUid: string | undefined) {
    if (!body.uid) {
      if (!body.appid) fail('APP_ID_REQUIRED');
      const app = await repo.findByCode(this.db, body.appid);
      if (!app || app.status !== 'active') fail('NOT_FOUND');
      return {
        uid: null,
        appCode: app.code,
        appName: app.name,
        logoUrl: app.logo_url,
        scopes: [],
        loginHint: null,
        userMatches: true,
        signedInAs: AppsService.signedInAs(auth),
      };
    }
    const { interaction, app } = await this.openInteraction(body.uid, browserUid);
    if (body.appid && body.appid !== app.code) fail('APP_INTERACTION_EXPIRED');
    const hint = interaction.params.login_hint;
    const asked = param(interaction.params.scope)
      .split(' ')
      .filter((s) => app.scopes.includes(s));
    return {
      uid: interaction.uid,
      appCode: app.code,
      appName: app.name,
      logoUrl: app.logo_url,
      scopes: asked,
      loginHint: typeof hint === 'string' && hint ? hint : null,
      userMatches: await this.hintedUserMatches(auth.user, hint),
      signedInAs: AppsService.signedInAs(auth),
    };
  }

  /**
   * The signed-in user grants the app the scopes it asked for (within those registered for it): the provider's grant
   * is saved (one per user and app, widened by later consents) and the interaction finished; own space lists the app.
   */
  async consent(auth: AuthContext, uid: string, browserUid: string | undefined) {
    const { interaction, app } = await this.openInteraction(uid, browserUid);
    if (!(await this.hintedUserMatches(auth.user, interaction.params.login_hint))) fail('APP_USER_MISMATCH');
    const provider = await this.oidc.provider();
    const scopes = param(interaction.params.scope)
      .split(' ')
      .filter((s) => app.scopes.includes(s));
    const existing = await AccountService.liveAuthorization(this.db, auth.userId, Number(app.id));
    let grant = existing?.grant_id ? await provider.Grant.find(existing.grant_id) : undefined;
    if (grant && (grant.accountId !== auth.userCode || grant.clientId !== app.code)) grant = undefined;
    grant ??= new provider.Grant({ accountId: auth.userCode, clientId: app.code });
    grant.addOIDCScope(scopes.join(' '));
    const grantId = await grant.save();
    const granted = [...new Set([...(grant.getOIDCScope() || '').split(' ').filter(Boolean)])];
    await AccountService.recordAuthorization(this.db, {
      appCode: existing?.app_code ?? newCode('aa'),
      userId: auth.userId,
      appId: Number(app.id),
      appName: app.name,
      scopes: granted.join(','),
      grantId,
    });
    interaction.result = { login: { accountId: auth.userCode }, consent: { grantId } };
    await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
    return { returnTo: interaction.returnTo };
  }

  /** The user refuses: the app is sent back `access_denied`. */
  async deny(_auth: AuthContext, uid: string, browserUid: string | undefined) {
    const { interaction } = await this.openInteraction(uid, browserUid);
    interaction.result = { error: 'access_denied', error_description: 'The user refused the authorization.' };
    await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
    return { returnTo: interaction.returnTo };
  }

  /** An app's call counts against its limits, per app and per user, on the whole site (0, or seconds to wait). */
  admit(app: { appId: number }, auth: AuthContext): number {
    return this.calls.admit(app.appId, auth.userId);
  }

  /** Every call an app makes goes into its user's organization's log (an error answer counts as refused). */
  record(app: { appId: number }, auth: AuthContext, call: string, statusCode: number) {
    this.calls.record({
      organizationId: auth.organizationId,
      appId: app.appId,
      userId: auth.userId,
      call,
      refused: statusCode >= 400,
    });
  }

  /** The organization's log of app calls, newest minute first (its administrators, own space → App activity). */
  async callLog(auth: AuthContext, query: { appCode?: string; pageNum: number; pageSize: number }) {
    const { total, rows } = await appCallsRepository.page(
      this.db,
      auth.organizationId,
      query.appCode || undefined,
      query.pageSize,
      (query.pageNum - 1) * query.pageSize,
    );
    return {
      total,
      list: rows.map((r) => ({
        minute: r.minute,
        appCode: r.app_code,
        appName: r.app_name,
        userCode: r.user_code,
        userName: r.user_name,
        account: r.account,
        call: r.call,
        calls: Number(r.calls),
        refused: Number(r.refused),
      })),
    };
  }

  /** Housekeeping: the call log keeps APP_CALL_LOG_DAYS. */
  deleteOldCalls() {
    return appCallsRepository.deleteOlderThan(this.db, APP_CALL_LOG_DAYS);
  }

  /**
   * The user and scopes behind an app's access token, or undefined when the provider does not know it (expired,
   * revoked, its app suspended, its user disabled).
   */
  async authenticate(token: string): Promise<AppTokenAuth | undefined> {
    if (!/^[A-Za-z0-9_-]{20,200}$/.test(token)) return undefined;
    const found = await this.cache.appToken(token, () => this.lookUp(token));
    if (found) await this.noteUse(found.grantId);
    return found;
  }

  /** Last use is kept to the minute: each process writes it at most that often per grant. */
  private async noteUse(grantId: string) {
    const now = Date.now();
    if (now - (this.usedAt.get(grantId) ?? 0) < 60_000) return;
    this.usedAt.set(grantId, now);
    if (this.usedAt.size > 10_000) this.usedAt.delete(this.usedAt.keys().next().value!);
    await AccountService.markAppUsed(this.db, grantId);
  }

  /** The provider's record of a token, its app and its user, read from the database. */
  private async lookUp(token: string): Promise<{ value: AppTokenAuth; expiresAt: number } | undefined> {
    if (!this.oidc.loaded && !(await repo.modelExists(this.db, 'AccessToken', token))) return undefined;
    const provider = await this.oidc.provider();
    const accessToken = await provider.AccessToken.find(token);
    const { clientId, grantId, accountId } = accessToken ?? {};
    if (!accessToken || accessToken.isExpired || !clientId || !grantId || !accountId) return undefined;
    // A suspended or pending app is unknown to the provider: its tokens stand for nothing.
    const app = await repo.findByCode(this.db, clientId);
    if (!app || app.status !== 'active') return undefined;
    const user = await AccountService.userByCode(this.db, accountId);
    if (!user || user.status === UserStatus.Disabled || user.org_status === OrgStatus.Disabled) return undefined;
    const value: AppTokenAuth = {
      appId: Number(app.id),
      appCode: clientId,
      grantId,
      scopes: new Set(accessToken.scopes),
      auth: {
        user,
        userId: Number(user.id),
        userCode: user.user_code,
        organizationId: Number(user.organization_id),
        orgType: user.org_type,
        roleId: Number(user.role_id),
        sessionId: `app:${grantId}`,
        forceChangePassword: user.force_change_password,
        identityVerifiedUntil: null,
      },
    };
    return { value, expiresAt: (accessToken.exp ?? 0) * 1000 };
  }
}
