import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { AppCallLog } from '../src/modules/apps/app-calls.js';
import { side, type Side } from './fixtures.js';
import { oauthFlow, startOAuthWorld, type OAuthWorld } from './oauth-flow.js';

/**
 * Apps' calls (docs/product-decisions.md, "Apps"): every call an app makes is in its user's organization's log for
 * the administrators, and the calls are limited per app and per user, on the whole site.
 */
let w: OAuthWorld;
const { registerApp, configFor, authorize, finish, api } = oauthFlow(() => w);
let clinic: Side;
let other: Side;

beforeAll(async () => {
  w = await startOAuthWorld({ APP_CALLS_PER_MINUTE: '8', APP_USER_CALLS_PER_MINUTE: '5' });
  clinic = await side(w.h, OrgType.Clinic);
  other = await side(w.h, OrgType.Clinic);
});
afterAll(() => w?.h.close());

const list = { pageNum: 1, pageSize: 10 };

/** A minute boundary between two calls would start new counts: the limit tests wait it out when it is close. */
async function awayFromMinuteEdge() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 8000) await new Promise((r) => setTimeout(r, left + 200));
}

describe("apps' calls", () => {
  it('limits an app per user and per app, answers 429 with Retry-After, and logs every call for the administrators', async () => {
    await awayFromMinuteEdge();
    const app = await registerApp({ name: 'Counted app' });
    const config = await configFor(app);
    const mine = await finish(config, await authorize(config, clinic), clinic);
    const theirs = await finish(config, await authorize(config, other), other);

    for (let i = 0; i < 4; i++) expect((await api('case/list', mine.access_token, list)).code).toBe(200);
    // Beyond the token's scopes: refused, and still a call.
    expect((await api('case/create', mine.access_token, { name: 'X', patientName: 'Y' })).code).toBe(1002);
    const limited = await fetch(`${w.base}/api/v2/case/list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mine.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(list),
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // The portal's own session is not an app: its calls go on.
    expect((await w.h.call('case/list', { token: clinic.token, body: list })).code).toBe(200);

    // Another user of the app has calls of their own left, until the app's whole allowance (8) is used.
    for (let i = 0; i < 3; i++) expect((await api('case/list', theirs.access_token, list)).code).toBe(200);
    expect((await api('case/list', theirs.access_token, list)).code).toBe(429);

    // The clinic's administrator reads its members' calls, counted per minute; refused ones are marked.
    await expect
      .poll(async () => (await w.h.call('app/callLog', { token: clinic.token, body: {} })).data.total, {
        timeout: 5000,
      })
      .toBe(2);
    const log = await w.h.call('app/callLog', { token: clinic.token, body: { appCode: app.appCode } });
    expect(log.code).toBe(200);
    const byCall = Object.fromEntries(
      (log.data.list as Array<{ call: string; calls: number; refused: number }>).map((e) => [e.call, e]),
    );
    expect(byCall['case/list']).toMatchObject({
      appName: 'Counted app',
      account: clinic.account,
      calls: 5,
      refused: 1,
    });
    expect(byCall['case/create']).toMatchObject({ calls: 1, refused: 1 });
    expect(new Date(log.data.list[0].minute).getUTCSeconds()).toBe(0);

    // Another organization sees its own members' calls only; another app's filter shows nothing.
    const theirLog = await w.h.call('app/callLog', { token: other.token, body: {} });
    expect(theirLog.data.list.map((e: { account: string }) => e.account)).toEqual([other.account]);
    expect((await w.h.call('app/callLog', { token: clinic.token, body: { appCode: 'app_none' } })).data.total).toBe(0);
    const bad = await w.h.call('app/callLog', { token: clinic.token, body: { pageSize: 1000 } });
    expect(bad.code).toBe(400);
    expect(JSON.stringify(bad)).toContain('pageSize');
  });

  it('holds the limits across processes: a process learns what the others counted at its next write', async () => {
    await awayFromMinuteEdge();
    const app = await registerApp({ name: 'Shared app' });
    const [row] = await w.h.db.query<{ id: string }>('SELECT id FROM oauth_apps WHERE code = $1', [app.appCode]);
    const appId = Number(row!.id);
    const log = w.h.app.log;
    const first = new AppCallLog(w.h.db, { perApp: 100, perUser: 3 }, log, 60_000);
    const second = new AppCallLog(w.h.db, { perApp: 100, perUser: 3 }, log, 60_000);
    const call = {
      organizationId: clinic.organizationId,
      appId,
      userId: clinic.userId,
      call: 'case/list',
      refused: false,
    };

    for (let i = 0; i < 2; i++) {
      expect(first.admit(appId, clinic.userId)).toBe(0);
      first.record(call);
    }
    await first.flush();
    // The second process has not written yet: it knows nothing of the first one's calls.
    expect(second.admit(appId, clinic.userId)).toBe(0);
    second.record(call);
    await second.flush();
    // Written and read back: the site's three calls are the user's allowance.
    expect(second.admit(appId, clinic.userId)).toBeGreaterThan(0);
    await first.flush();
    expect(first.admit(appId, clinic.userId)).toBeGreaterThan(0);
    const [count] = await w.h.db.query<{ calls: number }>(
      'SELECT sum(calls)::int AS calls FROM app_call_minutes WHERE app_id = $1',
      [appId],
    );
    expect(Number(count!.calls)).toBe(3);
    await first.close();
    await second.close();
  });

  it('forgets minutes older than the log keeps', async () => {
    const [row] = await w.h.db.query<{ id: string }>('SELECT id FROM oauth_apps ORDER BY id LIMIT 1');
    await w.h.db.query(
      `INSERT INTO app_call_minutes (organization_id, minute, app_id, user_id, call, calls)
       VALUES ($1, date_trunc('minute', now()) - interval '91 days', $2, $3, 'case/list', 1)`,
      [clinic.organizationId, row!.id, clinic.userId],
    );
    await w.h.app.housekeeping.run('appCallLogCleanup');
    const [left] = await w.h.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM app_call_minutes WHERE minute < now() - interval '90 days'`,
    );
    expect(Number(left!.n)).toBe(0);
  });
});
