import { randomBytes } from 'node:crypto';
import { createSecretKey } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenService } from '../src/platform/auth.js';
import { assertDocumented, createHarness, login, PASSWORD, type Harness } from './harness.js';
import { readOperations, type Operation } from './api-operations.js';
import { ISOLATION_MATRIX, privateMarkers, type MatrixRequest } from './isolation-matrix.js';
import { fileState, StateWatch } from './state.js';
import { buildWorld, multipart, ORG_TYPE, type Org, type World } from './world.js';
import { member } from './fixtures.js';
import { PERMISSION_FROM_REQUEST } from '../src/platform/api-docs.js';

/**
 * The isolation matrix, generated from the API document and the table in isolation-matrix.ts: every operation is
 * called as every organization its resource does not belong to, without a token and with forged ones; the answer
 * is refused, holds nothing of another organization, and changes nothing.
 */
let h: Harness;
let w: World;
let operations: Operation[];
let watch: StateWatch;
/** Tokens that must open nothing: signed with another secret, expired, of a session that was signed out. */
let badTokens: Record<string, string>;
const stats = { operations: 0, requests: 0 };

beforeAll(async () => {
  // The permission matrix signs in a member per role it tries.
  h = await createHarness({ LOGIN_RATE_LIMIT_PER_MINUTE: '1000' });
  w = await buildWorld(h);
  operations = await readOperations(h);
  watch = new StateWatch(h);
  const clinic = w.pairs[0].clinic;
  const { sid } = decodeJwt(clinic.token) as { sid: string };
  const revoked = (await login(h, clinic.account)).accessToken;
  await h.call('user/logout', { token: revoked });
  badTokens = {
    'a token signed with another secret': await new TokenService(randomBytes(32).toString('hex'), 900).sign({
      userCode: clinic.userCode,
      sessionId: sid,
    }),
    'an expired token': await new SignJWT({ sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(clinic.userCode)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1800)
      .sign(createSecretKey(Buffer.from(h.config.jwtSecret, 'utf8'))),
    'the token of a signed-out session': revoked,
  };
}, 120_000);
afterAll(() => h?.close());

type Caller = { org?: Org; token?: string; label: string; address?: string };

async function send(req: MatrixRequest, caller: Caller) {
  const method = req.method ?? 'POST';
  const query = req.query ? `?${new URLSearchParams(req.query)}` : '';
  const path = `${req.path}${query}`;
  if (process.env.ISOLATION_TRACE) console.log(`${method} ${path} as ${caller.label}`);
  const headers: Record<string, string> = {};
  if (caller.token) headers.authorization = `Bearer ${caller.token}`;
  let status: number;
  let body: string;
  let type: string;
  if (req.parts) {
    // Multipart goes over the loopback, as a client sends it.
    const form = multipart(req.parts);
    const res = await fetch(`${w.base}/api/v2/${path}`, {
      method,
      headers: { ...headers, 'content-type': form.contentType },
      body: new Uint8Array(form.payload),
    });
    [status, body, type] = [res.status, await res.text(), res.headers.get('content-type') ?? ''];
  } else {
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    const res = await h.app.inject({
      method,
      url: `/api/v2/${path}`,
      headers,
      payload,
      ...(caller.address && { remoteAddress: caller.address }),
    });
    [status, body, type] = [res.statusCode, res.body, String(res.headers['content-type'] ?? '')];
  }
  stats.requests += 1;
  const json = type.includes('json') ? (JSON.parse(body) as { code: number; data: any }) : undefined;
  if (json) assertDocumented(h.app, method, path, status, json.code);
  return { status, code: json?.code ?? status, data: json?.data, body };
}

const problems: string[] = [];

/** Anything of another organization in an answer is a leak, whoever got it (what the caller sent aside). */
function leaks(op: Operation, caller: Caller, body: string, req: MatrixRequest) {
  // The mail outbox is the super administrator's to read: it holds every mail the portal sent.
  if (op.operationId === 'mailListOutbox' && caller.org === w.inner) return;
  const sent = JSON.stringify(req);
  for (const m of privateMarkers(w))
    if (!m.visibleTo.includes(caller.org!) && body.includes(m.text) && !sent.includes(m.text))
      problems.push(`${op.operationId} as ${caller.label}: the answer holds the ${m.what}`);
}

/** A request as `caller` that must be refused (as `expect` says) and change nothing. */
async function refused(
  op: Operation,
  req: MatrixRequest,
  caller: Caller,
  expect: (r: { status: number; code: number; data: any }) => string | undefined,
) {
  await watch.before();
  const res = await send(req, caller);
  const changes = await watch.after();
  const where = `${op.operationId} as ${caller.label}`;
  const wrong = expect(res);
  if (wrong) problems.push(`${where}: ${wrong} (got HTTP ${res.status}, code ${res.code}: ${res.body.slice(0, 160)})`);
  if (changes.length) problems.push(`${where}: answered ${res.status} ${res.code} and changed ${changes.join('; ')}`);
  leaks(op, caller, res.body, req);
  return res;
}

const orgCaller = (o: Org): Caller => ({ org: o, token: o.token, label: o.label });

/** Waits for what a setup's finished uploads leave to do (the store removes an upload's parts after it). */
async function settled() {
  let last = JSON.stringify(fileState(h));
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 25));
    const now = JSON.stringify(fileState(h));
    if (now === last) break;
    last = now;
  }
  watch.forget();
}

describe('isolation matrix', () => {
  it('lists every operation of the document, and only those', () => {
    const ids = operations.map((op) => op.operationId);
    expect(
      ids.filter((id) => !ISOLATION_MATRIX[id]),
      'operations missing from isolation-matrix.ts',
    ).toEqual([]);
    expect(
      Object.keys(ISOLATION_MATRIX).filter((id) => !ids.includes(id)),
      'entries for operations that are gone',
    ).toEqual([]);
    for (const op of operations) {
      const callers = ISOLATION_MATRIX[op.operationId]!.callers;
      const expected = op.security === 'session' ? 'organization types' : op.security;
      const actual = callers === 'public' || callers === 'device' ? callers : 'organization types';
      expect(actual, `${op.operationId}: callers`).toBe(expected);
    }
  });

  it('refuses other organizations and forged tokens, leaks nothing and changes nothing', async () => {
    for (const op of operations) {
      const entry = ISOLATION_MATRIX[op.operationId];
      if (!entry) continue;
      stats.operations += 1;
      watch.forget();
      const resource = entry.resource ? await entry.resource(w) : undefined;
      await settled();

      if (resource && entry.callers === 'device') {
        // The other clinic's scanner.
        await refused(
          op,
          resource.request,
          { token: w.pairs[1].deviceToken, org: w.pairs[1].clinic, label: 'scanner B' },
          (r) => (r.code === 404 ? undefined : 'expected 404'),
        );
        const own = await send(resource.request, {
          token: resource.ownerDevice,
          org: w.pairs[0].clinic,
          label: 'scanner A',
        });
        if (own.code !== 200)
          problems.push(`${op.operationId}: the owner's scanner got ${own.code}: the matrix names no real resource`);
      } else if (resource && Array.isArray(entry.callers)) {
        const callers = entry.callers;
        for (const other of w.orgs.filter((o) => !resource.owners.includes(o))) {
          await refused(op, resource.request, orgCaller(other), (r) => {
            if (!callers.includes(other.kind))
              return r.status === 403 ? undefined : 'expected 403: its type may not call it';
            if (entry.notThisRequest?.includes(other.kind))
              return r.status === 403 ? undefined : 'expected 403: its type may not make this request';
            if (entry.readsOwn?.includes(other.kind)) return r.code === 200 ? undefined : 'expected its own answer';
            if (entry.strangers === 'perItem') {
              const items = (r.data?.results ?? []) as Array<{ ok: boolean }>;
              return r.code === 200 && items.every((i) => !i.ok) ? undefined : 'expected every item refused';
            }
            return (entry.strangers ?? [404]).includes(r.code)
              ? undefined
              : `expected ${(entry.strangers ?? [404]).join(' or ')}`;
          });
        }
        const owner = resource.owner === undefined ? resource.owners[0] : resource.owner;
        if (owner) {
          const own = await send(resource.request, orgCaller(owner));
          leaks(op, orgCaller(owner), own.body, resource.request);
          if (own.code !== 200)
            problems.push(
              `${op.operationId}: the owner (${owner.label}) got ${own.code}: the matrix names no real resource`,
            );
        }
      }

      // The owner's call and the probes below may change the state: the refusals after them start afresh.
      await watch.settle();
      watch.forget();
      if (entry.probe)
        for (const o of w.orgs) {
          const res = await send(entry.probe(w), orgCaller(o));
          if (res.status >= 500) problems.push(`${op.operationId} as ${o.label}: server error ${res.status}`);
          leaks(op, orgCaller(o), res.body, entry.probe(w));
        }

      await watch.settle();
      watch.forget();
      for (const req of entry.forged?.(w) ?? [])
        await refused(op, req, { label: `nobody, forged: ${JSON.stringify(req).slice(0, 100)}` }, (r) =>
          r.status >= 400 ? undefined : 'expected a refusal',
        );

      // Without a token, and with tokens that must open nothing.
      if (op.security !== 'public') {
        const req = resource?.request ??
          entry.probe?.(w) ?? { path: op.path, method: op.method, body: op.method === 'POST' ? {} : undefined };
        const tokens: Record<string, string | undefined> =
          op.security === 'device'
            ? {
                'no token': undefined,
                'a made-up device token': `dvc_${randomBytes(32).toString('base64url')}`,
                "a user's access token": w.pairs[0].clinic.token,
              }
            : { 'no token': undefined, ...badTokens };
        for (const [label, token] of Object.entries(tokens))
          await refused(op, req, { token, label }, (r) => (r.status === 401 ? undefined : 'expected 401'));
      }
      // Every organization is still signed in.
      for (const o of w.orgs)
        if ((await h.call('user/info', { token: o.token })).code !== 200)
          problems.push(`${op.operationId}: ${o.label} was signed out`);
    }
    console.log(`isolation matrix: ${stats.operations} operations, ${stats.requests} requests`);
    expect(problems).toEqual([]);
  }, 300_000);

  it('refuses every call to a member whose role lacks its permission, one permission at a time, and to another organization holding it', async () => {
    const kinds = ['clinic', 'lab', 'dealer', 'oem'] as const;
    const checked = { requests: 0, members: 0 };
    for (const kind of kinds) {
      const [own, other] = [w.pairs[0][kind], w.pairs[1][kind]];
      const menus = await h.db.query<{ code: string; parent_code: string | null; api_permissions: string[] }>(
        `SELECT DISTINCT m.code, m.parent_code, m.api_permissions
           FROM roles r JOIN role_menus rm ON rm.role_id = r.id JOIN menus m ON m.id = rm.menu_id
          WHERE r.built_in AND r.org_type = $1 AND m.code <> 'all'
          ORDER BY m.code`,
        [ORG_TYPE[kind]],
      );
      const byCode = new Map(menus.map((m) => [m.code, m]));
      /** What a role holding one entry holds: the entry's permissions and its parents' (the editor adds them). */
      const heldWith = (code: string) => {
        const held = new Set<string>();
        for (let c: string | null = code; c; c = byCode.get(c)?.parent_code ?? null)
          for (const p of byCode.get(c)?.api_permissions ?? []) held.add(p);
        return held;
      };
      // Each call the type may make on its own resource, with the request that names it (made once: refusals change nothing).
      const calls: Array<{ op: Operation; req: MatrixRequest; strangers: readonly number[] | 'perItem' | 'own' }> = [];
      for (const op of operations) {
        const entry = ISOLATION_MATRIX[op.operationId];
        if (op.security !== 'session' || !op.permission || op.permission === PERMISSION_FROM_REQUEST) continue;
        if (!entry || !Array.isArray(entry.callers) || !entry.callers.includes(kind)) continue;
        const resource = entry.resource ? await entry.resource(w) : undefined;
        const req = resource?.owners.includes(own) ? resource.request : entry.probe?.(w);
        // What another organization of the type gets for it (as the isolation matrix says; none for a probe).
        const strangers = !resource?.owners.includes(own)
          ? []
          : entry.readsOwn?.includes(kind)
            ? 'own'
            : entry.notThisRequest?.includes(kind)
              ? [1002]
              : (entry.strangers ?? [404]);
        if (req) calls.push({ op, req, strangers });
      }
      await settled();
      for (const { code } of menus) {
        const m = await member(h, own, ORG_TYPE[kind], [code]);
        watch.forget();
        checked.members += 1;
        const held = heldWith(code);
        // An address of its own, so the routes' limits per address do not answer before the permission.
        const address = `10.9.${checked.members >> 8}.${checked.members & 255}`;
        const caller: Caller = { token: m.token, org: own, label: `${own.label}'s member holding ${code}`, address };
        for (const { op, req } of calls.filter((c) => !held.has(c.op.permission!))) {
          checked.requests += 1;
          await refused(op, req, caller, (r) =>
            r.status === 403 && (r.code === 1002 || r.code === 2031)
              ? undefined
              : `expected 403: the role lacks ${op.permission}`,
          );
        }
      }
      // Another organization of the type, holding exactly the permission the call needs: its resource is not theirs.
      const strangerWith = new Map<string, string>();
      for (const { op, req, strangers } of calls) {
        if (strangers === 'perItem' || strangers === 'own' || !strangers.length) continue;
        const code = menus.find((m) => m.api_permissions.includes(op.permission!))?.code;
        if (!code) continue;
        if (!strangerWith.has(code)) {
          const m = await member(h, other, ORG_TYPE[kind], [code]);
          // Sensitive calls ask for the password first; this member has just given it.
          // From an address of its own: checkIdentity has a limit per address, and there is one such member per entry.
          const verified = await h.app.inject({
            method: 'POST',
            url: '/api/v2/user/checkIdentity',
            headers: { authorization: `Bearer ${m.token}`, 'content-type': 'application/json' },
            payload: JSON.stringify({ password: PASSWORD }),
            remoteAddress: `10.7.${strangerWith.size >> 8}.${strangerWith.size & 255}`,
          });
          expect(verified.json().code).toBe(200);
          strangerWith.set(code, m.token);
          watch.forget();
        }
        checked.requests += 1;
        const label = `${other.label}'s member holding ${code}`;
        await refused(op, req, { token: strangerWith.get(code), org: other, label, address: '10.8.0.1' }, (r) =>
          strangers.includes(r.code) ? undefined : `expected ${strangers.join(' or ')}`,
        );
      }
    }
    console.log(`permission matrix: ${checked.members} single-entry roles, ${checked.requests} requests`);
    expect(checked.requests).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  }, 600_000);
});
