import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { fallbackPoll, LIVE_RESET, LiveConnection, setLive, shouldPoll, type LiveDeps, type LiveEvent } from './live';

/**
 * The tab's live connection against a real socket server on loopback that speaks the portal's protocol as the test
 * tells it (apps/server/src/modules/live/live-hub.ts is the real one; apps/server/test/live.test.ts tests it).
 */
interface Peer {
  ws: ServerSocket;
  received: Array<Record<string, unknown>>;
}

let server: WebSocketServer;
let url: string;
let peers: Peer[];
let onAuth: (peer: Peer, message: Record<string, unknown>) => void;
let live: LiveConnection | undefined;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(found: () => T | undefined | false, what: string, ms = 3_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = found();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await pause(5);
  }
}
const frame = (peer: Peer, body: Record<string, unknown>) => peer.ws.send(JSON.stringify(body));

beforeEach(async () => {
  peers = [];
  onAuth = (peer) => frame(peer, { t: 'ready', position: 10 });
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (ws) => {
    const peer: Peer = { ws, received: [] };
    peers.push(peer);
    ws.on('message', (data) => {
      const m = JSON.parse((data as Buffer).toString('utf8')) as Record<string, unknown>;
      peer.received.push(m);
      if (m.t === 'auth' && peer.received.length === 1) onAuth(peer, m);
      if (m.t === 'ping') frame(peer, { t: 'pong' });
    });
  });
  await new Promise((r) => server.once('listening', r));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
});
afterEach(async () => {
  live?.stop();
  live = undefined;
  setLive(undefined);
  for (const c of server.clients) c.terminate();
  await new Promise((r) => server.close(r));
});

function connect(over: Partial<LiveDeps> = {}) {
  const calls = { unauthenticated: 0, role: 0, pollingResumed: 0 };
  let token = 'token-1';
  live = new LiveConnection({
    url: () => url,
    token: () => token,
    unauthenticated: async () => {
      calls.unauthenticated += 1;
      return false;
    },
    roleChanged: () => (calls.role += 1),
    pollingResumed: () => (calls.pollingResumed += 1),
    WebSocket: NodeWebSocket as unknown as LiveDeps['WebSocket'],
    random: () => 0,
    timing: { firstBackoffMs: 20, maxBackoffMs: 200, pingMs: 100, fallbackAfterMs: 300 },
    ...over,
  });
  setLive(live);
  live.start();
  return { live, calls, setToken: (t: string) => (token = t) };
}
const connected = (c: LiveConnection) => until(() => c.state.get().connected, 'connection');

describe('the live connection', () => {
  it('authenticates with its first message, then hands each frame’s events to the subscribers of their kinds', async () => {
    const { live } = connect();
    const orders: LiveEvent[][] = [];
    const all: string[] = [];
    live.subscribe('order.changed', (events) => orders.push(events));
    live.subscribe(['order.changed', 'notification'], (events) => all.push(...events.map((e) => e.kind)));
    await connected(live);
    expect(peers[0]!.received[0]).toEqual({ t: 'auth', token: 'token-1' });
    expect(live.position).toBe(10);
    frame(peers[0]!, {
      t: 'events',
      list: [
        { p: 11, kind: 'order.changed', subject: 'O1', data: { status: 'accepted' } },
        { p: 12, kind: 'notification', subject: null, data: {} },
        { p: 13, kind: 'order.changed', subject: 'O2', data: { status: 'shipped' } },
      ],
    });
    await until(() => all.length === 3, 'events');
    // One call per frame and subscriber, with that frame's events of its kinds.
    expect(orders.map((list) => list.map((e) => e.subject))).toEqual([['O1', 'O2']]);
    expect(all).toEqual(['order.changed', 'order.changed', 'notification']);
    expect(live.position).toBe(13);
  });

  it('hands signal frames (a typing mark) to their listeners whole, and posts a screen’s own messages only when up', async () => {
    const { live: c } = connect();
    const heard: Array<Record<string, unknown>> = [];
    const stop = c.onSignal('chat.typing', (f) => heard.push(f));
    c.post({ t: 'chat.typing', conversationCode: 'early' });
    await connected(c);
    const peer = peers[0]!;
    frame(peer, { t: 'chat.typing', conversationCode: 'cv-1', name: 'Ana' });
    frame(peer, { t: 'other.signal' });
    await until(() => heard.length === 1, 'the typing mark');
    expect(heard).toEqual([{ t: 'chat.typing', conversationCode: 'cv-1', name: 'Ana' }]);
    c.post({ t: 'chat.typing', conversationCode: 'cv-1' });
    await until(() => peer.received.some((m) => m.t === 'chat.typing'), 'the posted mark');
    // Posted before the socket was up: dropped, not queued.
    expect(peer.received.filter((m) => m.t === 'chat.typing')).toEqual([
      { t: 'chat.typing', conversationCode: 'cv-1' },
    ]);
    stop();
    frame(peer, { t: 'chat.typing', conversationCode: 'cv-2', name: 'Ana' });
    await pause(50);
    expect(heard).toHaveLength(1);
  });

  it('reconnects after the server goes away and resumes after the last position it received', async () => {
    const { live } = connect();
    await connected(live);
    frame(peers[0]!, { t: 'events', list: [{ p: 42, kind: 'case.changed', subject: 'C1', data: {} }] });
    await until(() => live.position === 42, 'position');
    peers[0]!.ws.close(1001, 'server restarting');
    await until(() => !live.state.get().connected, 'disconnection');
    await until(() => peers[1]?.received[0], 'second socket');
    expect(peers[1]!.received[0]).toEqual({ t: 'auth', token: 'token-1', after: 42 });
    await connected(live);
    // A blip: polling never started.
    expect(live.state.get().polling).toBe(false);
  });

  it('waits longer after each failure, up to a ceiling, with jitter', () => {
    const deps = {
      url: () => url,
      token: () => 't',
      unauthenticated: async () => false,
      roleChanged: () => undefined,
      pollingResumed: () => undefined,
    };
    const high = new LiveConnection({ ...deps, random: () => 1 });
    expect([0, 1, 2, 3, 10, 20].map((n) => high.backoff(n))).toEqual([500, 1000, 2000, 4000, 30_000, 30_000]);
    const low = new LiveConnection({ ...deps, random: () => 0 });
    // Jitter takes up to half off, so tabs cut off together do not come back together.
    expect([0, 3, 20].map((n) => low.backoff(n))).toEqual([250, 2000, 15_000]);
  });

  it('polls only while the socket cannot connect, and stops once it does', async () => {
    let refuse = true;
    onAuth = (peer) => (refuse ? peer.ws.close(1011, 'unavailable') : frame(peer, { t: 'ready', position: 1 }));
    const poll = fallbackPoll(1_000);
    const { live, calls } = connect();
    expect(poll()).toBe(false);
    await until(() => live.state.get().polling, 'polling');
    expect(poll()).toBe(1_000);
    expect(calls.pollingResumed).toBe(1);
    // Several failed attempts meanwhile, spaced out.
    expect(peers.length).toBeGreaterThan(2);
    refuse = false;
    await connected(live);
    expect(poll()).toBe(false);
    expect(shouldPoll()).toBe(false);
    live.stop();
    setLive(undefined);
    // No connection at all (a screen outside the signed-in layout): it polls.
    expect(shouldPoll()).toBe(true);
  });

  it('sends the renewed token on the open socket, once', async () => {
    const { live, setToken } = connect();
    await connected(live);
    setToken('token-2');
    live.tokenChanged();
    live.tokenChanged();
    await until(() => peers[0]!.received.length === 2, 'renewal');
    await pause(50);
    expect(peers[0]!.received).toEqual([
      { t: 'auth', token: 'token-1' },
      { t: 'auth', token: 'token-2' },
    ]);
    // The next socket starts with the new one.
    peers[0]!.ws.close(1001);
    await until(() => peers[1]?.received[0], 'second socket');
    expect(peers[1]!.received[0]).toMatchObject({ token: 'token-2' });
  });

  it('closes when the token is gone (signed out here or in another tab)', async () => {
    const { live, setToken } = connect();
    await connected(live);
    setToken('');
    live.tokenChanged();
    await until(() => peers[0]!.ws.readyState === peers[0]!.ws.CLOSED, 'close');
    await pause(100);
    expect(peers.length).toBe(1);
    expect(live.state.get()).toEqual({ connected: false, polling: true });
  });

  it('4401: the session is checked; over, it stays closed; renewed, it reconnects', async () => {
    onAuth = (peer, m) =>
      m.token === 'good' ? frame(peer, { t: 'ready', position: 5 }) : peer.ws.close(4401, 'session ended');
    const over = connect({ token: () => 'bad' });
    await until(() => over.calls.unauthenticated === 1, 'session check');
    await pause(150);
    expect(peers.length).toBe(1);
    expect(over.live.state.get().connected).toBe(false);
    over.live.stop();

    // A token that expired while another was renewed: the check refreshes it, and the socket comes back with it.
    let token = 'bad';
    const renewed = connect({
      token: () => token,
      unauthenticated: async () => {
        token = 'good';
        return true;
      },
    });
    await connected(renewed.live);
    expect(peers.at(-1)!.received[0]).toEqual({ t: 'auth', token: 'good' });
  });

  it('a reset or a role change is passed on', async () => {
    const { live, calls } = connect();
    let resets = 0;
    live.subscribe(LIVE_RESET, () => (resets += 1));
    await connected(live);
    frame(peers[0]!, { t: 'reset', position: 99 });
    frame(peers[0]!, { t: 'role' });
    await until(() => resets === 1 && calls.role === 1, 'reset and role');
    expect(live.position).toBe(99);
  });

  it('a socket that stops answering is replaced', async () => {
    const { live } = connect();
    await connected(live);
    // The server stops reading the socket's pings: no pong, no frame.
    peers[0]!.ws.removeAllListeners('message');
    await until(() => peers.length === 2, 'a new socket', 2_000);
    await connected(live);
  });
});
