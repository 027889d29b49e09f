// Apps (OAuth 2.0 / OpenID Connect): the provider's token endpoint and an app's API calls, each against what the
// portal does for its own users in the same run.
// 1. Code exchanges per second and their p95: authorization codes are obtained first (the browser's hops and the
//    consent call, as a user would), then exchanged at /oidc/token, BENCH_APP_CONCURRENCY at a time. Baseline: the
//    portal's own sign-in (the `login` call, argon2id) as many times, as many at a time.
// 2. `case/list` with an app's access token (looked up in the provider's store on every call, scopes and role
//    checked) against the same call with a portal session, closed-loop for BENCH_SECONDS each.
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { apiClient, fmtLoad, freshDatabase, load, login, percentile, startPortal } from './portal-lib.mjs';

const CODES = Number(process.env.BENCH_APP_CODES ?? 300);
const CONCURRENCY = Number(process.env.BENCH_APP_CONCURRENCY ?? 16);
const REDIRECT = 'http://127.0.0.1:9/callback';
const b64url = (buf) => buf.toString('base64url');

/** Runs `fn(i)` for i < count, `width` at a time; answers each call's duration in ms and the whole run's. */
async function timedPool(count, width, fn) {
  const took = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        const s = performance.now();
        await fn(i);
        took.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  took.sort((a, b) => a - b);
  return { perSecond: count / seconds, p50: percentile(took, 50), p95: percentile(took, 95) };
}

const fmt = (r) => `${r.perSecond.toFixed(0)}/s, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`;

/** One authorization as a browser makes it: to the consent page, the consent call, back through the provider. */
async function authorizationCode(origin, appCode, portalToken) {
  const cookies = new Map();
  const keep = (res) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const verifier = b64url(randomBytes(32));
  const challenge = b64url(createHash('sha256').update(verifier).digest());
  const params = new URLSearchParams({
    client_id: appCode,
    response_type: 'code',
    scope: 'openid cases:read',
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: b64url(randomBytes(8)),
  });
  let res = await fetch(`${origin}/oidc/auth?${params}`, { redirect: 'manual' });
  keep(res);
  const uid = new URL(res.headers.get('location'), origin).searchParams.get('uid');
  const consent = await fetch(`${origin}/api/v2/app/consent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${portalToken}`, cookie: cookieHeader() },
    body: JSON.stringify({ uid }),
  }).then((r) => r.json());
  if (consent.code !== 200) throw new Error(`app/consent: ${consent.msg}`);
  let next = new URL(consent.data.returnTo, origin).href;
  for (let hop = 0; hop < 5; hop++) {
    res = await fetch(next, { redirect: 'manual', headers: { cookie: cookieHeader() } });
    keep(res);
    const location = new URL(res.headers.get('location'), next).href;
    if (location.startsWith(REDIRECT)) return { code: new URL(location).searchParams.get('code'), verifier };
    next = location;
  }
  throw new Error('apps bench: no code came back');
}

async function exchange(origin, appCode, { code, verifier }) {
  const res = await fetch(`${origin}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: appCode,
    }),
  });
  const body = await res.json();
  if (!body.access_token) throw new Error(`token: ${JSON.stringify(body)}`);
  return body.access_token;
}

export async function appsBench({ adminUrl, start, waitFor, stop, freePort }) {
  const database = await freshDatabase(adminUrl, 'portal_bench_apps');
  const portal = await startPortal(
    { start, waitFor, freePort },
    {
      DATABASE_URL: database.url,
      OAUTH_ALLOW_LOOPBACK_REDIRECTS: 'true',
      // The baseline signs in hundreds of times from one address; the app calls thousands of times a minute (each
      // call is still counted and logged, as in production).
      LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
      APP_CALLS_PER_MINUTE: '10000000',
      APP_USER_CALLS_PER_MINUTE: '10000000',
    },
  );
  try {
    const adminToken = await login(portal.base, 'admin');
    const admin = apiClient(portal.base, adminToken);
    await admin('user/checkIdentity', { password: 'Dental#2026' });
    const { appCode } = await admin('app/create', {
      name: 'Bench app',
      redirectUris: [REDIRECT],
      scopes: ['openid', 'cases:read'],
      contactEmail: 'bench@example.test',
      confidential: false,
    });
    const clinicToken = await login(portal.base, 'clinic');

    // Codes live a minute: made just before they are exchanged.
    const codes = [];
    await timedPool(CODES, 8, async () => {
      codes.push(await authorizationCode(portal.origin, appCode, clinicToken));
    });
    const tokens = [];
    const exchanges = await timedPool(CODES, CONCURRENCY, async (i) => {
      tokens.push(await exchange(portal.origin, appCode, codes[i]));
    });
    const signIns = await timedPool(CODES, CONCURRENCY, async () => {
      await apiClient(portal.base)('login', { account: 'clinic', password: 'Dental#2026' });
    });

    const appToken = tokens[0];
    const asApp = apiClient(portal.base, appToken);
    const asUser = apiClient(portal.base, clinicToken);
    const body = { pageNum: 1, pageSize: 20 };
    await asApp('case/list', body);
    await asUser('case/list', body);
    const appList = await load(() => asApp('case/list', body), { concurrency: CONCURRENCY });
    const userList = await load(() => asUser('case/list', body), { concurrency: CONCURRENCY });

    return [
      [
        `apps: authorization codes exchanged at /oidc/token (${CODES}, ${CONCURRENCY} at a time)`,
        fmt(exchanges),
        `the portal's own sign-in, as many: ${fmt(signIns)}`,
        'measured',
      ],
      [
        `apps: case/list with an app's access token (${CONCURRENCY} at a time)`,
        fmtLoad(appList),
        `the same call with a portal session: ${fmtLoad(userList)}`,
        'measured',
      ],
    ];
  } finally {
    await stop(portal.child);
    rmSync(portal.dataDir, { recursive: true, force: true });
    await database.drop();
  }
}
