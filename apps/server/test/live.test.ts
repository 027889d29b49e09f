import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { EventsService } from '../src/modules/events/events.service.js';
import { TokenService } from '../src/platform/auth.js';
import { postgresDb } from '../src/platform/db.js';
import { createHarness, createUser, login, PASSWORD, type Harness } from './harness.js';
import { childDatabase, callChild, startChildServer, killChildServers } from './child-server.js';
import { testDbKind } from './db-url.js';
import { member, newCase, orderAction, partner, sendToLab, side, type Side } from './fixtures.js';
import { LiveClient } from './live-client.js';

/**
 * Live updates over one socket per tab (docs/architecture.md, "Events and live updates"): who may open one, what it
 * receives and in which order, and what ends it.
 */
let h: Harness;
let base: string;
let clinic: Side;
let lab: Side;
let stranger: Side;
let partnerCode: string;
const sockets: LiveClient[] = [];
/** Sockets of a clinic and a laboratory that take no part: they must hear nothing of what the others do. */
let bystanders: LiveClient[] = [];

function open(opts: { origin?: string } = {}) {
  const c = new LiveClient(base, opts);
  sockets.push(c);
  return c;
}
async function signedIn(token: string, after?: number) {
  const c = open();
  const answer = await c.auth(token, after);
  expect(answer).toMatchObject({ t: expect.stringMatching(/ready|reset/) });
  return c;
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
  stranger = await side(h, OrgType.Clinic);
  partnerCode = await partner(h, clinic, lab);
  const otherLab = await side(h, OrgType.Lab);
  bystanders = [await signedIn((await side(h, OrgType.Clinic)).token), await signedIn(otherLab.token)];
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await killChildServers();
  await h.close();
});

describe('opening a socket', () => {
  it("refuses another site's page before the upgrade", async () => {
    const c = open({ origin: 'https://attacker.example' });
    await expect(c.opened).rejects.toThrow('upgrade refused: 403');
    const same = open({ origin: base });
    await same.opened;
  });

  it('closes a socket that does not authenticate within 5 seconds', async () => {
    const c = open();
    await c.opened;
    expect(await c.whenClosed(8_000)).toEqual({ code: 4408, reason: 'authenticate first' });
  });

  it('refuses a forged, expired or signed-out token, and closes', async () => {
    const forged = open();
    await forged.auth('not-a-token');
    expect(forged.closed?.code).toBe(4401);
    const signedOut = (await login(h, clinic.account)).accessToken;
    await h.call('user/logout', { token: signedOut });
    const ended = open();
    await ended.auth(signedOut);
    expect(ended.closed?.code).toBe(4401);
    // A token that expires unrenewed ends the socket.
    const [u] = await h.db.query<{ user_code: string }>('SELECT user_code FROM users WHERE id = $1', [clinic.userId]);
    const { decodeJwt } = await import('jose');
    const { sid } = decodeJwt(clinic.token) as { sid: string };
    // Three seconds: long enough to be accepted first on a busy machine.
    const short = await new TokenService(h.config.jwtSecret, 3).sign({ userCode: u!.user_code, sessionId: sid });
    const expiring = await signedIn(short);
    expect(await expiring.whenClosed(10_000)).toEqual({ code: 4401, reason: 'token expired' });
  });

  it('answers a malformed message with an error, closes on an oversized frame and on a flood', async () => {
    const c = await signedIn(clinic.token);
    c.send('not json');
    await c.until(() => c.frames.find((f) => f.t === 'error' && f.code === 400), 'an error');
    c.send({ t: 'nonsense' });
    await c.until(() => c.frames.filter((f) => f.t === 'error').length >= 2, 'a second error');
    c.sendRaw('x'.repeat(17 * 1024));
    expect((await c.whenClosed()).code).toBe(1009);

    const flood = await signedIn(clinic.token);
    for (let i = 0; i < 200; i++) flood.send({ t: 'ping' });
    expect(await flood.whenClosed()).toEqual({ code: 4429, reason: 'too many messages' });
    // The server is still there.
    expect((await h.call('user/info', { token: clinic.token })).code).toBe(200);
  });

  it('limits sockets waiting to authenticate from one address', async () => {
    const waiting = Array.from({ length: 21 }, () => open());
    await Promise.allSettled(waiting.map((w) => w.opened));
    const refused = await waiting[20]!.whenClosed();
    expect(refused).toEqual({ code: 4429, reason: 'too many sockets waiting to authenticate' });
    for (const w of waiting) w.close();
    await Promise.all(waiting.map((w) => w.whenClosed()));
  });
});

describe('what a socket receives', () => {
  it("an order's changes reach both sides' sockets in order, never a stranger's, and never a patient name", async () => {
    const clinicSocket = await signedIn(clinic.token);
    const labSocket = await signedIn(lab.token);
    const strangerSocket = await signedIn(stranger.token);
    const noOrders = await member(h, clinic, OrgType.Clinic, ['dashboard']);
    const narrowSocket = await signedIn(noOrders.token);
    const caseCode = await newCase(h, clinic, 'Live crown', 'Ingrid Secretname');
    const [orderCode] = await sendToLab(h, clinic, partnerCode, [caseCode]);
    expect((await orderAction(h, lab, [orderCode!], 'accept')).code).toBe(200);

    const orderEvents = (c: LiveClient) => c.events.filter((e) => e.subject === orderCode);
    await labSocket.until(() => orderEvents(labSocket).length >= 2, 'the order created and accepted');
    await clinicSocket.until(() => orderEvents(clinicSocket).length >= 2, 'the order created and accepted');
    expect(orderEvents(clinicSocket).map((e) => [e.kind, e.data.status, e.data.event])).toEqual([
      ['order.changed', 'pending', 'create'],
      ['order.changed', 'accepted', 'accept'],
    ]);
    // The laboratory is told it has a new notification; the case the order came from changed for the clinic.
    expect(labSocket.events.some((e) => e.kind === 'notification')).toBe(true);
    expect(clinicSocket.events.some((e) => e.kind === 'case.changed' && e.subject === caseCode)).toBe(true);
    const positions = clinicSocket.events.map((e) => e.p);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));

    await pause(300);
    expect(JSON.stringify(strangerSocket.events)).not.toContain(orderCode);
    expect(narrowSocket.events.filter((e) => e.kind.startsWith('order.') || e.kind.startsWith('case.'))).toEqual([]);
    expect(JSON.stringify([...clinicSocket.frames, ...labSocket.frames])).not.toContain('Secretname');
  });

  it('resumes after the position it saw, and is told to refetch when what it missed is no longer kept', async () => {
    const first = await signedIn(clinic.token);
    const caseCode = await newCase(h, clinic, 'Seen case');
    await first.until(() => first.events.find((e) => e.subject === caseCode), 'the new case');
    const seen = first.events.at(-1)!.p;
    first.close();
    const missedCase = await newCase(h, clinic, 'Missed case');
    const again = await signedIn(clinic.token, seen);
    await again.until(() => again.events.find((e) => e.subject === missedCase), 'the case made while away');
    expect(again.events.filter((e) => e.subject === caseCode)).toEqual([]);
    // Events older than those kept: the page refetches everything.
    await h.db.query(`DELETE FROM events WHERE position <= $1`, [seen + 1]);
    const late = open();
    expect(await late.auth(clinic.token, seen - 1)).toMatchObject({ t: 'reset' });
  });

  it('a role change tells the page to reload its menu; a disabled user and a logout close the socket', async () => {
    const m = await member(h, clinic, OrgType.Clinic, ['dashboard', 'orders']);
    const socket = await signedIn(m.token);
    const made = await h.call('user/role/allotRolePermission', {
      token: clinic.token,
      body: { roleCode: m.roleCode, menuCodes: ['dashboard'] },
    });
    expect(made.code).toBe(200);
    await socket.until(() => socket.frames.find((f) => f.t === 'role'), 'the role change');

    const [row] = await h.db.query<{ user_code: string }>('SELECT user_code FROM users WHERE id = $1', [m.userId]);
    await h.call('user/checkIdentity', { token: clinic.token, body: { password: PASSWORD } });
    expect((await h.call('user/disable', { token: clinic.token, body: { userCodes: [row!.user_code] } })).code).toBe(
      200,
    );
    expect(await socket.whenClosed()).toEqual({ code: 4401, reason: 'session ended' });

    const u = await createUser(h.db);
    const token = (await login(h, u.account)).accessToken;
    const mine = await signedIn(token);
    await h.call('user/logout', { token });
    expect((await mine.whenClosed()).code).toBe(4401);
  });

  it("a renewed token of the same user keeps the socket; another user's closes it", async () => {
    const socket = await signedIn(clinic.token);
    const renewed = (await login(h, clinic.account)).accessToken;
    socket.send({ t: 'auth', token: renewed });
    await socket.until(() => socket.frames.find((f) => f.t === 'renewed'), 'the renewal');
    socket.send({ t: 'auth', token: lab.token });
    expect(await socket.whenClosed()).toEqual({ code: 4401, reason: 'another user signed in' });
  });

  it('sockets of organizations that took no part heard nothing of all the above', async () => {
    await pause(300);
    for (const b of bystanders) {
      expect(b.closed).toBeUndefined();
      expect(b.events).toEqual([]);
    }
  });
});

describe.runIf(testDbKind() === 'postgres')('events in commit order, across processes', () => {
  it('an event committed after a later one is not skipped: positions follow the commits', async () => {
    const socket = await signedIn(clinic.token);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let recorded!: () => void;
    const first = new Promise<void>((r) => (recorded = r));
    // The first transaction writes its event and stays open; a second one writes and commits meanwhile.
    const slow = h.db.transaction(async (tx) => {
      await EventsService.record(tx, { organizationId: clinic.organizationId, kind: 'test.order', subject: 'first' });
      recorded();
      await held;
    });
    await first;
    await h.db.transaction((tx) =>
      EventsService.record(tx, { organizationId: clinic.organizationId, kind: 'test.order', subject: 'second' }),
    );
    const position = async (subject: string) =>
      (await h.db.query<{ position: string | null }>(`SELECT position FROM events WHERE subject = $1`, [subject]))[0]!
        .position;
    const heard = () => socket.events.filter((e) => e.kind === 'test.order').map((e) => e.subject);
    // The committed one is sent at once: an open transaction elsewhere holds nothing back.
    await socket.until(() => heard().length === 1, 'the committed event');
    expect(heard()).toEqual(['second']);
    // The first, once committed, comes after it: a later position, so a client that saw the second still gets it.
    release();
    await slow;
    await socket.until(() => heard().length === 2, 'both events');
    await pause(300);
    expect(heard()).toEqual(['second', 'first']);
    expect(Number(await position('first'))).toBeGreaterThan(Number(await position('second')));
  });

  it('1,000 concurrent writers reach a socket on each of two processes: none missed, none twice, in order', async () => {
    const store = await childDatabase();
    const db = await store.open();
    const writers = postgresDb(store.databaseUrl!, 10);
    try {
      const u = await createUser(db);
      const [a, b] = await Promise.all([startChildServer(store), startChildServer(store)]);
      const token = (await callChild(a.baseUrl, 'login', { account: u.account, password: PASSWORD, saveLogin: false }))
        .data.accessToken as string;
      const onA = new LiveClient(a.baseUrl);
      const onB = new LiveClient(b.baseUrl);
      sockets.push(onA, onB);
      await onA.auth(token);
      await onB.auth(token);
      const N = 1_000;
      let next = 0;
      // 40 writers at once, each event in its own transaction, committing in whatever order they finish.
      await Promise.all(
        Array.from({ length: 40 }, async () => {
          while (next < N) {
            const i = next++;
            await writers.transaction((tx) =>
              EventsService.record(tx, { organizationId: u.organizationId, kind: 'test.write', subject: String(i) }),
            );
          }
        }),
      );
      for (const c of [onA, onB]) {
        await c.until(() => c.events.filter((e) => e.kind === 'test.write').length >= N, `${N} events`, 30_000);
        await pause(500);
        const got = c.events.filter((e) => e.kind === 'test.write');
        expect(got.length).toBe(N);
        expect(new Set(got.map((e) => e.subject)).size).toBe(N);
        const positions = got.map((e) => e.p);
        expect(positions).toEqual([...positions].sort((x, y) => x - y));
      }
      await Promise.all([a.stop(), b.stop()]);
    } finally {
      await writers.close();
      await db.close();
      await store.drop();
    }
  }, 120_000);
});
