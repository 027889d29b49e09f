import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, createUser, login, PASSWORD, type Harness } from './harness.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  const admin = await createUser(h.db, { orgType: OrgType.Inner });
  token = (await login(h, admin.account)).accessToken;
  await h.call('user/checkIdentity', { token, body: { password: PASSWORD } });
});
afterAll(() => h.close());

/** Bodies a careless or hostile client might send. */
const HOSTILE: Array<Record<string, unknown> | string> = [
  {},
  { account: 12, password: ['x'], id: { a: 1 }, email: null, saveLogin: 'perhaps', pageNum: -1, pageSize: 10_000, approve: 'yes' },
  { account: 'x'.repeat(5000), password: 'y'.repeat(5000), id: 'z'.repeat(5000), organizationCode: "'; DROP TABLE users; --", reason: '\u0000\u202e' },
  { region: 'mars', orgType: 99, language: 'tlh', toothNumberingSystem: 42, agreementType: 'privacy,,', gender: 'other' },
  '{"unterminated": ',
  'account=%ZZ&password=%',
];

describe('every route under hostile input', () => {
  it('answers with a catalogue code below 500, never a server error', async () => {
    const doc = (await h.app.inject({ url: '/api/v2/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => ({ path, method: m.toUpperCase() })));
    expect(routes.length).toBeGreaterThan(25);
    for (const { path, method } of routes) {
      const url = path.replace('{id}', 'no-such-id');
      for (const body of HOSTILE) {
        for (const auth of [undefined, token]) {
          const headers: Record<string, string> = auth ? { authorization: `Bearer ${auth}` } : {};
          let payload: string | undefined;
          if (method === 'POST') {
            const form = typeof body === 'string' && body.startsWith('account=');
            headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
            payload = typeof body === 'string' ? body : JSON.stringify(body);
          }
          const res = await h.app.inject({ method: method as 'GET' | 'POST', url: method === 'GET' && typeof body === 'object' ? `${url}?email=${'%'.repeat(3)}` : url, headers, payload });
          expect(res.statusCode, `${method} ${url} ${String(payload).slice(0, 60)} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
          if (res.headers['content-type']?.toString().includes('json')) {
            const json = res.json() as { code: number; msg: string };
            expect(typeof json.code).toBe('number');
            expect(json.msg.length).toBeGreaterThan(0);
          }
        }
      }
    }
  });
});
