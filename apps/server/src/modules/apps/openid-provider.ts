import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Adapter, AdapterPayload, ClientMetadata, Configuration, JWK } from 'oidc-provider';
import type ProviderType from 'oidc-provider';
import { exportJWK, generateKeyPair } from 'jose';
import { APP_SCOPES, OrgStatus, UserStatus } from '@portal/contracts';
import type { Config } from '../../config.js';
import { openWith, sealWith } from '../../platform/crypto.js';
import type { Db } from '../../platform/db.js';
import { AccountService } from '../users/account.service.js';
import { appsRepository as repo, type AppRow } from './apps.repository.js';

export type Provider = ProviderType;

/** Where the provider answers (its issuer is the site's public address and this path). */
export const OIDC_PATH = '/oidc';
/** The token endpoint's other address, the spec's `POST /open/portal/auth` (§7). */
export const OPEN_TOKEN_PATH = '/open/portal/auth';
/** The portal page that signs the user in and asks for consent (spec §2's /third/auth-login). */
export const INTERACTION_PAGE = '/third/auth-login';
/**
 * The browser that started an authorization request keeps its uid in this cookie, sent only with the page's calls
 * (app/interaction, app/consent, app/deny): consent is given in that browser, so a uid lured into another user's
 * signed-in portal (from the attacker's own request) authorizes nothing.
 */
export const INTERACTION_COOKIE = 'portal_app_interaction';
export const INTERACTION_COOKIE_PATH = '/api/v2/app';

export const ACCESS_TOKEN_TTL_SECONDS = 600;
const REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400;
const GRANT_TTL_SECONDS = 365 * 86_400;
const INTERACTION_TTL_SECONDS = 600;

/** Every id, token and uid the provider makes is base64url; anything else is not looked up. */
const PROVIDER_ID = /^[A-Za-z0-9_-]{1,200}$/;
/** The apps' codes (client_id). */
const APP_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/** Where rows read on every token request are held between changes (the session cache). */
export interface RowCache {
  held<T>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined>;
}

/** The SHA-256 of a client secret, as `oauth_apps.secret_hash` keeps it. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The provider's view of a registered app; a suspended app is not found, so its tokens and requests are refused. */
export function clientMetadataOf(app: AppRow): ClientMetadata | undefined {
  if (app.status !== 'active') return undefined;
  const confidential = app.secret_hash !== null;
  return {
    client_id: app.code,
    ...(confidential ? { client_secret: app.secret_hash! } : {}),
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
    require_pushed_authorization_requests: confidential,
    application_type: 'web',
    redirect_uris: app.redirect_uris,
    response_types: ['code'],
    grant_types: ['authorization_code', 'refresh_token'],
    scope: app.scopes.join(' '),
    client_name: app.name,
    ...(app.logo_url ? { logo_uri: app.logo_url } : {}),
    contacts: [app.contact_email],
  };
}

/**
 * The OpenID provider (oidc-provider), loaded on first use: its storage in PostgreSQL (`oauth_models`, so a revoked
 * grant or token stops on every process at once), its clients the registered apps, its keys made once and kept sealed.
 */
export class OpenIdProvider {
  private loading: Promise<Provider> | undefined;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
    /** Apps and users as the session cache holds rows: forgotten on every process when one changes. */
    private readonly cache: RowCache,
  ) {}

  get issuer(): string {
    return `${this.config.publicUrl}${OIDC_PATH}`;
  }

  /** Whether the provider was loaded in this process (loading it the first time makes its keys when there are none). */
  get loaded(): boolean {
    return this.loading !== undefined;
  }

  provider(): Promise<Provider> {
    this.loading ??= this.load().catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  /**
   * Mounts the provider's endpoints under /oidc, and its token endpoint also at `/open/portal/auth` (spec §7: an app
   * exchanges its grant there); the provider reads the request bodies itself.
   */
  register(app: FastifyInstance) {
    let callback: ReturnType<Provider['callback']> | undefined;
    const handle = (providerPath: (url: string) => string) => async (request: FastifyRequest, reply: FastifyReply) => {
      const provider = await this.provider();
      callback ??= provider.callback();
      // The headers set for every page (no framing, the content policy) go out with the provider's answers.
      for (const [name, value] of Object.entries(reply.getHeaders()))
        if (value !== undefined) reply.raw.setHeader(name, value);
      reply.hijack();
      const req = request.raw as typeof request.raw & { originalUrl?: string };
      req.originalUrl = req.url;
      req.url = providerPath(req.url!);
      await callback(req, reply.raw);
    };
    const underOidc = handle((url) => url.slice(OIDC_PATH.length) || '/');
    const tokenEndpoint = handle((url) => `/token${url.slice(OPEN_TOKEN_PATH.length)}`);
    return app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.all(OIDC_PATH, { schema: { hide: true } }, underOidc);
      scope.all(`${OIDC_PATH}/*`, { schema: { hide: true } }, underOidc);
      scope.post(OPEN_TOKEN_PATH, { schema: { hide: true } }, tokenEndpoint);
    });
  }

  /** The signing keys: made on the first start, sealed under the webhook secrets' key, read by every process. */
  private async signingKeys(): Promise<{ keys: JWK[] }> {
    const key = this.config.webhooks.secretKey;
    let sealed = await repo.signingKeys(this.db);
    if (!sealed) {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const jwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
      await repo.saveSigningKeys(this.db, sealWith(key, JSON.stringify({ keys: [jwk] })));
      sealed = await repo.signingKeys(this.db);
    }
    const opened = sealed ? openWith(key, sealed) : undefined;
    if (!opened) throw new Error('The OpenID provider keys cannot be opened: WEBHOOK_SECRET_KEY changed');
    return JSON.parse(opened) as { keys: JWK[] };
  }

  private async load(): Promise<Provider> {
    const { default: ProviderClass, interactionPolicy } = await import('oidc-provider');
    const { db, config, cache } = this;
    const jwks = await this.signingKeys();

    class PostgresAdapter implements Adapter {
      constructor(private readonly kind: string) {}
      async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
        await repo.upsertModel(db, this.kind, id, payload, expiresIn);
      }
      async find(id: string): Promise<AdapterPayload | undefined> {
        if (this.kind === 'Client') {
          if (!APP_CODE.test(id)) return undefined;
          const app = await cache.held(`app:${id}`, () => repo.findByCode(db, id));
          return app && clientMetadataOf(app);
        }
        return this.findBy('id', id);
      }
      findByUid(uid: string) {
        return this.findBy('uid', uid);
      }
      findByUserCode(userCode: string) {
        return this.findBy('user_code', userCode);
      }
      private async findBy(column: 'id' | 'uid' | 'user_code', value: string) {
        if (typeof value !== 'string' || !PROVIDER_ID.test(value)) return undefined;
        const row = await repo.findModel(db, this.kind, column, value);
        if (!row) return undefined;
        return { ...row.payload, ...(row.consumed ? { consumed: Number(row.consumed) } : {}) } as AdapterPayload;
      }
      async consume(id: string) {
        await repo.consumeModel(db, this.kind, id);
      }
      async destroy(id: string) {
        await repo.destroyModel(db, this.kind, id);
      }
      async revokeByGrantId(grantId: string) {
        await repo.revokeGrant(db, grantId);
      }
    }

    // The portal asks its signed-in user on every authorization request: the provider's own sign-in session never
    // stands in for the portal's (a user who signed out of the portal is asked again).
    const policy = interactionPolicy.base();
    policy
      .get('login')!
      .checks.add(
        new interactionPolicy.Check('portal_sign_in', 'the portal confirms its signed-in user', (ctx) =>
          ctx.oidc.result ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
        ),
      );

    const configuration: Configuration = {
      adapter: PostgresAdapter,
      clients: [],
      jwks,
      cookies: { keys: [createHmac('sha256', config.jwtSecret).update('portal:oidc-cookies').digest('hex')] },
      scopes: [...APP_SCOPES],
      claims: { openid: ['sub'], profile: ['name', 'preferred_username', 'locale'] },
      responseTypes: ['code'],
      clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
      pkce: { required: () => true },
      rotateRefreshToken: true,
      features: {
        devInteractions: { enabled: false },
        pushedAuthorizationRequests: { enabled: true },
        revocation: { enabled: true },
        introspection: { enabled: true },
        userinfo: { enabled: true },
        rpInitiatedLogout: { enabled: false },
      },
      ttl: {
        AccessToken: ACCESS_TOKEN_TTL_SECONDS,
        AuthorizationCode: 60,
        IdToken: 3600,
        Interaction: INTERACTION_TTL_SECONDS,
        PushedAuthorizationRequest: 60,
        Session: 3600,
        Grant: GRANT_TTL_SECONDS,
        RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      },
      interactions: {
        policy,
        url: (ctx, interaction) => {
          ctx.cookies.set(INTERACTION_COOKIE, interaction.uid, {
            path: INTERACTION_COOKIE_PATH,
            httpOnly: true,
            sameSite: 'lax',
            secure: ctx.secure,
            signed: false,
            overwrite: true,
            maxAge: INTERACTION_TTL_SECONDS * 1000,
          });
          return `${INTERACTION_PAGE}?uid=${encodeURIComponent(interaction.uid)}`;
        },
      },
      // A browser app may call the token endpoint from the origin of one of its redirect addresses.
      clientBasedCORS: (_ctx, origin, client) =>
        client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
      findAccount: async (_ctx, sub) => {
        if (!PROVIDER_ID.test(sub)) return undefined;
        const user = await cache.held(`user:${sub}`, () => AccountService.userByCode(db, sub));
        if (!user || user.status === UserStatus.Disabled || user.org_status === OrgStatus.Disabled) return undefined;
        return {
          accountId: sub,
          claims: () => ({ sub, name: user.display_name, preferred_username: user.account, locale: user.language }),
        };
      },
      // The provider's errors are answered as JSON (error and error_description), never as a page of its own.
      renderError: (ctx, out) => {
        ctx.type = 'json';
        ctx.body = out;
      },
    };
    const provider = new ProviderClass(this.issuer, configuration);
    provider.proxy = config.trustProxy;
    // Client secrets are kept as their SHA-256 (random 256-bit secrets: a fast hash is enough), so a presented
    // secret is hashed before the constant-time comparison.
    provider.Client.prototype.compareClientSecret = function (this: { clientSecret?: string }, actual: string) {
      const expected = Buffer.from(this.clientSecret ?? '', 'utf8');
      const given = Buffer.from(secretHash(actual), 'utf8');
      return Promise.resolve(expected.length === given.length && timingSafeEqual(expected, given));
    };
    provider.on('server_error', (_ctx, err) => this.log.error({ err }, 'oidc: server error'));
    return provider;
  }
}
