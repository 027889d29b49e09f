import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { PERMISSION_WILDCARD } from '@portal/contracts';
import { authenticateSession, rolePermissions, type AuthContext, type AuthDeps } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import { AuthService } from '../auth/auth.service.js';
import type { EventRow, EventStream } from '../events/events.service.js';
import { liveRepository } from './live.repository.js';

/**
 * The live sockets of this process (docs/architecture.md, "Events and live updates"). A socket authenticates with
 * its first message (never a token in the address, which balancers log), within AUTH_WITHIN_MS; it then receives, in
 * position order and once each, the events of its organization and its user that its role may see, starting after
 * the position it brings. It is closed when its session ends, its user or organization is disabled, or its token
 * expires without a new one; a role change refreshes what it may receive and tells the page to reload its menu.
 */

export const LIVE_LIMITS = {
  /** Time to send the first message (the token). */
  authWithinMs: 5_000,
  /** Largest frame a client may send (the socket carries small control messages; messages go by the API). */
  maxPayloadBytes: 16 * 1024,
  /** Messages a client may send: a burst, then so many a second. */
  burst: 30,
  perSecond: 10,
  /** Events replayed on resume; more than this and the client refetches instead. */
  replayMax: 1_000,
  /** A client that has not answered a ping by the next one is gone; shorter than balancers' idle time-outs. */
  heartbeatMs: 25_000,
  /** Bytes waiting to be sent to a client too slow to read them: it is closed and resumes when it reconnects. */
  maxBufferedBytes: 4 * 1024 * 1024,
} as const;

const SIGNAL_MAX_CHARS = 4_000;

/** Close codes the web app acts on. */
export const CLOSE = {
  unauthenticated: 4401,
  forbiddenOrigin: 4403,
  authTimeout: 4408,
  tooMany: 4429,
  slow: 4000,
  goingAway: 1001,
} as const;

interface Member {
  userId: number;
  userCode: string;
  organizationId: number;
  roleId: number;
  sessionId: string;
  permissions: Set<string>;
}

interface Client {
  ws: WebSocket;
  address: string;
  member?: Member;
  /** The highest position sent: nothing at or below it is sent again. */
  sent: number;
  /** Events that arrived while the client's missed ones were being read. */
  queued?: EventRow[];
  expiry?: NodeJS.Timeout;
  authTimer?: NodeJS.Timeout;
  tokens: number;
  refilledAt: number;
  alive: boolean;
}

/** A handler of a client message type other than the built-in ones (the chat's typing marks). */
export type MessageHandler = (member: AuthContext, message: Record<string, unknown>) => Promise<void> | void;

/**
 * Something a socket hears that is not kept as an event row (a typing mark): sent to the sockets of every process
 * through a notification, and lost by a socket that is not open at that moment.
 */
export interface Signal {
  organizationId: number;
  userIds?: number[];
  permission?: string;
  body: Record<string, unknown>;
}

export class LiveHub {
  private readonly clients = new Set<Client>();
  private readonly byOrganization = new Map<number, Set<Client>>();
  private readonly unauthenticated = new Map<string, number>();
  private readonly handlers = new Map<string, MessageHandler>();
  private readonly heartbeat: NodeJS.Timeout;
  private revalidating: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly deps: AuthDeps,
    private readonly stream: EventStream,
    private readonly log: FastifyBaseLogger,
    /** Sockets still to authenticate per client address; open sockets per user (tabs, devices). */
    private readonly limits: { waitingPerAddress: number; perUser: number },
  ) {
    this.heartbeat = setInterval(() => this.beat(), LIVE_LIMITS.heartbeatMs);
    this.heartbeat.unref();
  }

  async start() {
    this.unsubscribe = this.stream.subscribe((rows) => this.deliver(rows));
    // Any change to sessions, users, organizations or roles: each socket's session and role are looked at again.
    const unlistenAuth = await this.deps.db.listen('auth_changed', () => this.revalidateSoon());
    const unlistenSignals = await this.deps.db.listen('live_signals', (payload) => this.onSignal(payload));
    this.unlisten = async () => {
      await unlistenAuth();
      await unlistenSignals();
    };
  }

  /** Sends a signal to the sockets it is for, on every process (a notification's payload stops at 8,000 bytes). */
  async broadcast(s: Signal) {
    const payload = JSON.stringify(s);
    if (payload.length > SIGNAL_MAX_CHARS) throw new Error('live: signal too large');
    await liveRepository.notifySignal(this.deps.db, payload);
  }

  private onSignal(payload: string) {
    if (!payload) return;
    try {
      this.signal(JSON.parse(payload) as Signal);
    } catch (err) {
      this.log.error({ err }, 'live: a signal could not be read');
    }
  }

  /** How many sockets are open, and how many of them are signed in (metrics, benchmarks). */
  get counts() {
    let members = 0;
    for (const c of this.clients) if (c.member) members += 1;
    return { open: this.clients.size, members };
  }

  handle(type: string, handler: MessageHandler) {
    this.handlers.set(type, handler);
  }

  /** A socket accepted by the route (origin already checked). */
  accept(ws: WebSocket, address: string) {
    const waiting = this.unauthenticated.get(address) ?? 0;
    if (waiting >= this.limits.waitingPerAddress) {
      ws.close(CLOSE.tooMany, 'too many sockets waiting to authenticate');
      return;
    }
    this.unauthenticated.set(address, waiting + 1);
    const client: Client = { ws, address, sent: 0, tokens: LIVE_LIMITS.burst, refilledAt: Date.now(), alive: true };
    this.clients.add(client);
    client.authTimer = setTimeout(
      () => this.close(client, CLOSE.authTimeout, 'authenticate first'),
      LIVE_LIMITS.authWithinMs,
    );
    ws.on('pong', () => (client.alive = true));
    ws.on('message', (data, isBinary) => void this.onMessage(client, data, isBinary));
    ws.on('close', () => this.forget(client));
    ws.on('error', () => this.forget(client));
  }

  private async onMessage(client: Client, data: unknown, isBinary: boolean) {
    if (!this.take(client)) return this.close(client, CLOSE.tooMany, 'too many messages');
    let message: Record<string, unknown>;
    try {
      if (isBinary) throw new Error('binary');
      const parsed: unknown = JSON.parse(String(data));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      message = parsed as Record<string, unknown>;
    } catch {
      return this.send(client, { t: 'error', code: 400, msg: 'A message is a JSON object with a type (t).' });
    }
    const type = message.t;
    if (type === 'auth') return this.authenticate(client, message);
    if (type === 'ping') return this.send(client, { t: 'pong' });
    if (!client.member) return this.close(client, CLOSE.unauthenticated, 'authenticate first');
    const handler = typeof type === 'string' ? this.handlers.get(type) : undefined;
    if (!handler) return this.send(client, { t: 'error', code: 400, msg: `Unknown message type.` });
    try {
      await handler(await this.context(client.member), message);
    } catch (err) {
      if (err instanceof AppError) return this.send(client, { t: 'error', code: err.entry.code, of: type });
      this.log.error({ err }, 'live: a message handler failed');
      this.send(client, { t: 'error', code: 500, of: type });
    }
  }

  /** The first message, and again whenever the page's token is renewed: the same user, a live session. */
  private async authenticate(client: Client, message: Record<string, unknown>) {
    const token = typeof message.token === 'string' ? message.token : '';
    const claims = token ? await this.deps.tokens.verify(token) : null;
    let auth: AuthContext;
    try {
      if (!claims) throw new Error('token');
      auth = await authenticateSession(this.deps, claims.sessionId, claims.userCode);
    } catch {
      return this.close(client, CLOSE.unauthenticated, 'token refused');
    }
    if (auth.forceChangePassword) return this.close(client, CLOSE.unauthenticated, 'password change pending');
    if (client.member && client.member.userId !== auth.userId)
      return this.close(client, CLOSE.unauthenticated, 'another user signed in');
    const permissions = await rolePermissions(this.deps, auth.roleId);
    const member: Member = {
      userId: auth.userId,
      userCode: auth.userCode,
      organizationId: auth.organizationId,
      roleId: auth.roleId,
      sessionId: auth.sessionId,
      permissions,
    };
    if (client.expiry) clearTimeout(client.expiry);
    // A token that expires unrenewed ends the socket with it.
    client.expiry = setTimeout(
      () => this.close(client, CLOSE.unauthenticated, 'token expired'),
      Math.max(0, claims.expiresAt * 1000 - Date.now()),
    );
    client.expiry.unref();
    if (client.member) {
      client.member = member;
      return this.send(client, { t: 'renewed' });
    }
    if (this.userSockets(auth.userId) >= this.limits.perUser)
      return this.close(client, CLOSE.tooMany, 'too many sockets for this user');
    this.leaveWaiting(client);
    client.member = member;
    let set = this.byOrganization.get(member.organizationId);
    if (!set) this.byOrganization.set(member.organizationId, (set = new Set()));
    set.add(client);
    this.markPresent([member.userId]);
    await this.resume(client, message.after);
  }

  /** Sends what the client missed since the position it brings (or tells it to refetch), then goes live. */
  private async resume(client: Client, after: unknown) {
    const member = client.member!;
    const from = typeof after === 'number' && Number.isSafeInteger(after) && after >= 0 ? after : null;
    client.queued = [];
    let position = this.stream.position;
    if (from !== null) {
      const missed = await this.stream.missed(member.organizationId, member.userId, from, LIVE_LIMITS.replayMax);
      if (missed === 'reset') this.send(client, { t: 'reset', position });
      else {
        client.sent = from;
        this.push(client, missed);
        position = Math.max(position, client.sent);
      }
    }
    client.sent = Math.max(client.sent, position);
    const queued = client.queued;
    client.queued = undefined;
    this.push(client, queued);
    this.send(client, { t: 'ready', position: client.sent });
  }

  /** Newly positioned events, in order, to the sockets they concern. */
  private deliver(rows: EventRow[]) {
    const perClient = new Map<Client, EventRow[]>();
    for (const row of rows) {
      for (const client of this.byOrganization.get(Number(row.organization_id)) ?? []) {
        if (client.queued) {
          client.queued.push(row);
          continue;
        }
        let list = perClient.get(client);
        if (!list) perClient.set(client, (list = []));
        list.push(row);
      }
    }
    // Members of one organization mostly get the same frame: each distinct one is serialized once.
    const frames = new Map<string, string>();
    for (const [client, list] of perClient) this.push(client, list, frames);
  }

  /** Sends the events a member may see, above what it was sent already, as one frame. */
  private push(client: Client, rows: EventRow[], frames?: Map<string, string>) {
    const m = client.member;
    if (!m || !rows.length) return;
    const list: Array<Record<string, unknown>> = [];
    let key = '';
    for (const row of rows) {
      const position = Number(row.position);
      if (position <= client.sent) continue;
      client.sent = position;
      if (row.user_id !== null && Number(row.user_id) !== m.userId) continue;
      if (row.permission && !m.permissions.has(PERMISSION_WILDCARD) && !m.permissions.has(row.permission)) continue;
      list.push({ p: position, kind: row.kind, subject: row.subject, data: row.data, at: row.created_at });
      key += `${position},`;
    }
    if (!list.length) return;
    let frame = frames?.get(key);
    if (frame === undefined) {
      frame = JSON.stringify({ t: 'events', list });
      frames?.set(key, frame);
    }
    this.sendFrame(client, frame);
  }

  /** A signal for the sockets of some members of an organization, on this process only (see `broadcast`). */
  private signal(s: Signal) {
    for (const client of this.byOrganization.get(s.organizationId) ?? []) {
      const m = client.member!;
      if (s.userIds && !s.userIds.includes(m.userId)) continue;
      if (s.permission && !m.permissions.has(PERMISSION_WILDCARD) && !m.permissions.has(s.permission)) continue;
      this.send(client, s.body);
    }
  }

  private send(client: Client, body: Record<string, unknown>) {
    this.sendFrame(client, JSON.stringify(body));
  }

  private sendFrame(client: Client, frame: string) {
    const { ws } = client;
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > LIVE_LIMITS.maxBufferedBytes) return this.close(client, CLOSE.slow, 'reading too slowly');
    ws.send(frame);
  }

  /** A token bucket per socket: a flood of messages closes it with a reason. */
  private take(client: Client) {
    const now = Date.now();
    client.tokens = Math.min(
      LIVE_LIMITS.burst,
      client.tokens + ((now - client.refilledAt) / 1000) * LIVE_LIMITS.perSecond,
    );
    client.refilledAt = now;
    if (client.tokens < 1) return false;
    client.tokens -= 1;
    return true;
  }

  private userSockets(userId: number) {
    let n = 0;
    for (const c of this.clients) if (c.member?.userId === userId) n += 1;
    return n;
  }

  private revalidateSoon() {
    if (this.revalidating) return;
    this.revalidating = setTimeout(() => {
      this.revalidating = undefined;
      void this.revalidate().catch((err: unknown) => this.log.error({ err }, 'live: checking sessions failed'));
    }, 100);
    this.revalidating.unref();
  }

  /** After a sign-in change anywhere: closes the sockets whose session ended; a role change is told to the page. */
  async revalidate() {
    const members = [...this.clients].filter((c) => c.member);
    if (!members.length) return;
    const states = new Map(
      (await AuthService.sessionStates(this.deps.db, [...new Set(members.map((c) => c.member!.sessionId))])).map(
        (s) => [s.id, s],
      ),
    );
    for (const client of members) {
      const m = client.member!;
      const state = states.get(m.sessionId);
      if (!state?.live || state.force_change_password) {
        this.close(client, CLOSE.unauthenticated, 'session ended');
        continue;
      }
      const permissions = await rolePermissions(this.deps, Number(state.role_id));
      const changed =
        Number(state.role_id) !== m.roleId ||
        permissions.size !== m.permissions.size ||
        [...permissions].some((p) => !m.permissions.has(p));
      if (changed) {
        client.member = { ...m, roleId: Number(state.role_id), permissions };
        this.send(client, { t: 'role' });
      }
    }
  }

  /** Marks the users with an authenticated socket here as online (chat notices wait while they are). */
  private markPresent(userIds: number[]) {
    void liveRepository
      .markPresent(this.deps.db, [...new Set(userIds)])
      .catch((err: unknown) => this.log.warn({ err }, 'live: marking presence failed'));
  }

  private beat() {
    this.markPresent([...this.clients].flatMap((c) => (c.member ? [c.member.userId] : [])));
    for (const client of this.clients) {
      if (!client.alive) {
        client.ws.terminate();
        this.forget(client);
        continue;
      }
      client.alive = false;
      try {
        client.ws.ping();
      } catch {
        this.forget(client);
      }
    }
  }

  private async context(m: Member): Promise<AuthContext> {
    return authenticateSession(this.deps, m.sessionId, m.userCode);
  }

  private close(client: Client, code: number, reason: string) {
    try {
      client.ws.close(code, reason);
    } catch {
      client.ws.terminate();
    }
    this.forget(client);
  }

  private leaveWaiting(client: Client) {
    if (client.authTimer) {
      clearTimeout(client.authTimer);
      client.authTimer = undefined;
      const n = (this.unauthenticated.get(client.address) ?? 1) - 1;
      if (n > 0) this.unauthenticated.set(client.address, n);
      else this.unauthenticated.delete(client.address);
    }
  }

  private forget(client: Client) {
    if (!this.clients.delete(client)) return;
    this.leaveWaiting(client);
    if (client.expiry) clearTimeout(client.expiry);
    if (client.member) this.byOrganization.get(client.member.organizationId)?.delete(client);
  }

  /** Closes every socket (the process is stopping): clients reconnect to another process and resume. */
  async stop() {
    clearInterval(this.heartbeat);
    if (this.revalidating) clearTimeout(this.revalidating);
    this.unsubscribe?.();
    // A database already gone has nothing left to unlisten.
    await this.unlisten?.().catch(() => undefined);
    for (const client of [...this.clients]) this.close(client, CLOSE.goingAway, 'server restarting');
  }
}
