import {
  API_BASE,
  ERROR_TOAST_THROTTLE_MS,
  ERRORS,
  IGNORED_ERROR_CODES,
  LOGOUT_ERROR_CODES,
  REQUEST_TIMEOUT_MS,
  errorByCode,
  type Envelope,
} from '@portal/contracts';
import { tokens } from './tokens';
import { isMobileUserAgent } from './device';

/** What every failed call rejects with, so screens can react to the code (e.g. login). */
export class ApiError extends Error {
  readonly code: number;
  readonly msg: string;
  readonly data: unknown;
  readonly status: number;
  constructor(code: number, msg: string, data: unknown = null, status = 0) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.msg = msg;
    this.data = data;
    this.status = status;
  }
}

/** Client-side codes for failures that never reached a server envelope. */
export const CLIENT_CODES = { network: -1, timeout: -2, canceled: -3 } as const;

/** What the client needs from the app; injected so the client stays free of UI and router code. */
export interface HttpHooks {
  toast(text: string): void;
  /** Ends the session; `reason` is what the login page then says (why the user was signed out). */
  logout(reason?: string): void;
  regionMismatch(text: string, target: string): void | Promise<void>;
  /** Shows the password prompt (code 1014); resolves true once the identity was confirmed. */
  reauthenticate(): Promise<boolean>;
  /** A message of the `errors` namespace, or null when it has none. */
  translate(key: string): string | null;
  lang(): string;
  /** The server refused a call for want of a permission (code 1002): the role may have changed. */
  permissionsChanged(): void;
  /**
   * True while the session is being ended: a call that was in flight then and comes back refused as signed out says
   * nothing more (the sign-out already said why, once).
   */
  signingOut(): boolean;
}

const defaultHooks: HttpHooks = {
  toast: (text) => console.error(text),
  logout: () => tokens.clear(),
  regionMismatch: () => {},
  reauthenticate: async () => false,
  translate: () => null,
  lang: () => 'en',
  permissionsChanged: () => {},
  signingOut: () => false,
};
let hooks: HttpHooks = { ...defaultHooks };

export function configureHttp(partial: Partial<HttpHooks>) {
  hooks = { ...hooks, ...partial };
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Sent as JSON; a FormData goes as it is (multipart, see postForm). */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** The caller handles business errors itself: no generic toast (transport failures still show). */
  silent?: boolean;
  /** false for calls that must not trigger a token refresh (login, refresh itself). */
  auth?: boolean;
  timeoutMs?: number;
  /**
   * A write (`http.write`): sent with an Idempotency-Key made once for this call, so the call may be sent again after
   * a lost connection, a time-out or a balancer's error page, and the server applies it once (docs/api.md).
   */
  write?: boolean;
}

/** How a write is sent again after its answer was lost: the waits before the second and third sending. */
export const WRITE_RETRY_WAITS_MS = [500, 2_000] as const;
/** How often a write whose first sending still runs is asked about again (1 s apart, as the server's Retry-After). */
const PENDING_CHECKS = 10;
const PENDING_WAIT_MS = 1_000;

export interface Download {
  blob: Blob;
  filename: string | null;
}

interface Raw {
  status: number;
  statusText: string;
  envelope: Envelope | null;
  download: Download | null;
}

const APP_VERSION = '0.1.0';
const TIMEZONE = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
})();

function headers(accessToken: string): Record<string, string> {
  const info = {
    appCode: 'portal-web',
    appVersion: APP_VERSION,
    os: typeof navigator !== 'undefined' ? navigator.platform : '',
    accessToken,
    endPointClass: isMobileUserAgent() ? 'mobile' : 'web',
  };
  return { info: JSON.stringify(info), lang: hooks.lang(), timezone: TIMEZONE };
}

function filenameOf(disposition: string): string | null {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? null;
}

async function send(path: string, opts: RequestOptions & { key?: string }, accessToken: string): Promise<Raw> {
  const method = opts.method ?? 'POST';
  let url = `${API_BASE}/${path.replace(/^\//, '')}`;
  if (opts.query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query)) if (v !== undefined) qs.set(k, String(v));
    const s = qs.toString();
    if (s) url += `?${s}`;
  }
  const h = headers(accessToken);
  if (opts.key) h['idempotency-key'] = opts.key;
  const init: RequestInit = { method, headers: h };
  if (opts.body instanceof FormData) {
    // Multipart: no content-type, the browser sets multipart/form-data with its boundary.
    if (accessToken) h.authorization = `Bearer ${accessToken}`;
    init.body = opts.body;
  } else if (method === 'POST') {
    h['content-type'] = 'application/json';
    init.body = JSON.stringify(opts.body ?? {});
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  init.signal = controller.signal;
  try {
    const res = await fetch(url, init);
    // Sliding session: the server renews an access token past half its life.
    const renewed = res.headers.get('x-access-token');
    if (renewed && accessToken && tokens.access() === accessToken) tokens.set(renewed, tokens.refresh());
    const disposition = res.headers.get('content-disposition') ?? '';
    if (/attachment/i.test(disposition)) {
      return {
        status: res.status,
        statusText: res.statusText,
        envelope: null,
        download: { blob: await res.blob(), filename: filenameOf(disposition) },
      };
    }
    let envelope: Envelope | null = null;
    try {
      const body: unknown = await res.json();
      if (body && typeof body === 'object' && typeof (body as Envelope).code === 'number') envelope = body as Envelope;
    } catch {
      /* not JSON: treated as a transport failure below */
    }
    return { status: res.status, statusText: res.statusText, envelope, download: null };
  } catch (err) {
    if (controller.signal.aborted) throw new ApiError(CLIENT_CODES.timeout, 'timeout', null, 0);
    throw new ApiError(CLIENT_CODES.network, err instanceof Error ? err.message : String(err), null, 0);
  } finally {
    clearTimeout(timer);
  }
}

let lastToastAt = -Infinity;
/** At most one error toast per second (§8). */
function toast(text: string) {
  const now = Date.now();
  if (now - lastToastAt < ERROR_TOAST_THROTTLE_MS) return;
  lastToastAt = now;
  hooks.toast(text);
}

/** The generic display: mapped message for known codes, nothing for the ignore list, else the server text. */
export function errorText(code: number, serverMsg: string): string | null {
  if (IGNORED_ERROR_CODES.includes(code)) return null;
  const known = errorByCode(code);
  // Parameter errors carry the field name in the server text, which is more useful than the generic one.
  // Messages with parameters (minutes, field, target) come filled in from the server, in the same language.
  const mapped = known && code !== ERRORS.PARAM_INVALID.code ? hooks.translate(known.key) : null;
  if (mapped && !mapped.includes('{{')) return mapped;
  if (serverMsg) return serverMsg;
  return serverMsg || hooks.translate(ERRORS.INTERNAL.key) || 'Something went wrong';
}

let refreshing: Promise<boolean> | null = null;
let reauthing: Promise<boolean> | null = null;

/** One refresh for any number of concurrent 401s; they all wait on the same promise. */
function refreshOnce(): Promise<boolean> {
  refreshing ??= (async () => {
    const refreshToken = tokens.refresh();
    if (!refreshToken) return false;
    try {
      const raw = await send('user/refresh_token', { body: { refreshToken } }, '');
      const data = raw.envelope?.data as { accessToken?: string; refreshToken?: string } | undefined;
      if (raw.envelope?.code !== ERRORS.SUCCESS.code || !data?.accessToken) return false;
      tokens.set(data.accessToken, data.refreshToken ?? refreshToken);
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function reauthOnce(): Promise<boolean> {
  reauthing ??= hooks
    .reauthenticate()
    .catch(() => false)
    .finally(() => {
      reauthing = null;
    });
  return reauthing;
}

interface Attempt {
  refreshed: boolean;
  reauthed: boolean;
  /** A write's sendings after the first whose answer was lost, and its checks while the first still ran. */
  resent: number;
  pendingChecks: number;
}

const wait = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Balancer pages (no envelope) that say the request may not have reached a process that answered. */
const LOST_ANSWER_STATUSES = new Set([502, 503, 504]);

/** The session this call was sent in is being ended, or already was: its refusal is old news. */
function signedOutMeanwhile(sentToken: string | null): boolean {
  return hooks.signingOut() || (Boolean(sentToken) && !tokens.access());
}

async function run<T>(path: string, opts: RequestOptions & { key?: string }, attempt: Attempt): Promise<T> {
  // Calls made while a refresh is running wait for it, then go out with the new token.
  if (refreshing && opts.auth !== false) await refreshing;
  const sentToken = tokens.access();
  // A keyed write whose answer was lost is sent again with its key: applied once, whichever sending arrived.
  const resend = async () => {
    await wait(WRITE_RETRY_WAITS_MS[attempt.resent]!);
    return run<T>(path, opts, { ...attempt, resent: attempt.resent + 1 });
  };
  const mayResend = Boolean(opts.key) && attempt.resent < WRITE_RETRY_WAITS_MS.length;
  let raw: Raw;
  try {
    raw = await send(path, opts, sentToken);
  } catch (err) {
    const e = err as ApiError;
    if (mayResend) return resend();
    toast(e.code === CLIENT_CODES.timeout ? (hooks.translate('timeout') ?? 'timeout') : e.msg);
    throw e;
  }
  if (raw.download && raw.status < 400) return raw.download as T;

  const env = raw.envelope;
  if (!env && mayResend && LOST_ANSWER_STATUSES.has(raw.status)) return resend();
  // The first sending still runs: asked about again until it answers (its answer is then this one).
  if (
    env?.code === ERRORS.IDEMPOTENCY_PENDING.code &&
    !(env.data as { outcomeUnknown?: boolean } | null)?.outcomeUnknown &&
    attempt.pendingChecks < PENDING_CHECKS
  ) {
    await wait(PENDING_WAIT_MS);
    return run<T>(path, opts, { ...attempt, pendingChecks: attempt.pendingChecks + 1 });
  }
  if (!env) {
    if (raw.status === 401 && opts.auth !== false)
      return handle401<T>(path, opts, attempt, sentToken, null, raw.status);
    if (raw.status === ERRORS.SERVICE_UNAVAILABLE.status) {
      toast(raw.statusText || 'Service unavailable');
      hooks.logout();
    } else {
      toast(raw.statusText || `HTTP ${raw.status}`);
    }
    throw new ApiError(CLIENT_CODES.network, raw.statusText || `HTTP ${raw.status}`, null, raw.status);
  }
  if (env.code === ERRORS.SUCCESS.code) return env.data as T;

  const error = new ApiError(env.code, env.msg, env.data, raw.status);
  if (env.code === ERRORS.TOKEN_INVALID.code && opts.auth !== false) {
    return handle401<T>(path, opts, attempt, sentToken, error, raw.status);
  }
  if (env.code === ERRORS.REGION_MISMATCH.code) {
    const target = (env.data as { target?: string } | null)?.target ?? '';
    void hooks.regionMismatch(env.msg, target);
    throw error;
  }
  // 1074 is the password reset's own "verify first" (§8): the same prompt, then the call again.
  if (
    (env.code === ERRORS.REAUTH_REQUIRED.code || env.code === ERRORS.RESET_NEEDS_VERIFICATION.code) &&
    !attempt.reauthed
  ) {
    if (await reauthOnce()) return run<T>(path, opts, { ...attempt, reauthed: true });
    throw new ApiError(CLIENT_CODES.canceled, env.msg, env.data, raw.status);
  }
  if (env.code === ERRORS.NO_PERMISSION.code) hooks.permissionsChanged();
  // A session that ended or an organization disabled signs out; at sign-in itself the page shows the answer.
  if (LOGOUT_ERROR_CODES.includes(env.code) && (opts.auth !== false || env.code === ERRORS.SERVICE_UNAVAILABLE.code)) {
    if (signedOutMeanwhile(sentToken)) throw error;
    const reason = errorText(env.code, env.msg) ?? env.msg;
    toast(reason);
    hooks.logout(reason);
    throw error;
  }
  if (!opts.silent) {
    const text = errorText(env.code, env.msg);
    if (text) toast(text);
  }
  throw error;
}

async function handle401<T>(
  path: string,
  opts: RequestOptions & { key?: string },
  attempt: Attempt,
  sentToken: string,
  error: ApiError | null,
  status: number,
): Promise<T> {
  const err = error ?? new ApiError(ERRORS.TOKEN_INVALID.code, 'Unauthorized', null, status);
  if (signedOutMeanwhile(sentToken)) throw err;
  // Another call already refreshed while this one was in flight: just replay it.
  const current = tokens.access();
  if (!attempt.refreshed && current && current !== sentToken)
    return run<T>(path, opts, { ...attempt, refreshed: true });
  if (!attempt.refreshed && (await refreshOnce())) return run<T>(path, opts, { ...attempt, refreshed: true });
  hooks.logout();
  throw err;
}

/** 128 random bits (getRandomValues works on plain http too, where randomUUID does not). */
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  // One key for the whole call: its replays (a refreshed token, a confirmed password, a lost answer) are one write.
  // Keys are the signed-in caller's (the server keeps them per user): a signed-out write (a sign-in, a registration)
  // is not keyed, so it is never sent again. A multipart upload is not keyed either (stored whole or not at all).
  const keyed = opts.write && opts.auth !== false && Boolean(tokens.access()) && !(opts.body instanceof FormData);
  const key = keyed ? newKey() : undefined;
  return run<T>(path, { ...opts, key }, { refreshed: false, reauthed: false, resent: 0, pendingChecks: 0 });
}

export const http = {
  post: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
    request<T>(path, { ...opts, method: 'POST', body }),
  get: <T>(path: string, query?: RequestOptions['query'], opts: Omit<RequestOptions, 'method' | 'query'> = {}) =>
    request<T>(path, { ...opts, method: 'GET', query }),
  /** A call that changes something (what a mutation sends): keyed, so it can be sent again safely. */
  write: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body' | 'write'> = {}) =>
    request<T>(path, { ...opts, method: 'POST', body, write: true }),
};

/** Uploads can take longer than an ordinary JSON call. */
export const UPLOAD_TIMEOUT_MS = 120_000;

/**
 * Posts a multipart form (files) with the same headers, envelope handling, token refresh and replay,
 * password prompt and error display as every other call; the token also goes as `authorization: Bearer`.
 */
export function postForm<T>(
  path: string,
  form: FormData,
  opts: Omit<RequestOptions, 'method' | 'body'> = {},
): Promise<T> {
  return request<T>(path, { timeoutMs: UPLOAD_TIMEOUT_MS, ...opts, method: 'POST', body: form });
}

/** For tests: forget throttling and in-flight state. */
export function resetHttpState() {
  lastToastAt = -Infinity;
  refreshing = null;
  reauthing = null;
  hooks = { ...defaultHooks };
}
