import { createStore, useStore } from './store';

/**
 * The tab's live socket (docs/architecture.md, "Live updates in the web app"): one per tab, to the config's
 * `wsEndpoint`. The token goes in the first message (never in the address), with the position of the last event
 * this tab received, so a reconnection gets what it missed. Screens subscribe by event kind; while the socket is
 * down for longer than a blip, the screens that used to poll poll again (`fallbackPoll`).
 */

/** One event as the server sends it: its position, kind, subject (an order's or a case's code) and small data. */
export interface LiveEvent {
  p: number;
  kind: string;
  subject: string | null;
  data: Record<string, unknown>;
}

/** Close codes the server uses (apps/server/src/modules/live/live-hub.ts). */
export const LIVE_CLOSE = {
  unauthenticated: 4401,
  forbiddenOrigin: 4403,
  authTimeout: 4408,
  tooMany: 4429,
  slow: 4000,
  goingAway: 1001,
} as const;

/** Subscribers of this pseudo-kind hear that events were missed beyond what the server keeps: refetch everything. */
export const LIVE_RESET = 'live.reset';

export interface LiveTiming {
  firstBackoffMs: number;
  maxBackoffMs: number;
  pingMs: number;
  fallbackAfterMs: number;
}

export const LIVE_TIMING: LiveTiming = {
  /** First reconnection delay; doubled after each failure up to `maxBackoffMs`, each with up to 50% jitter. */
  firstBackoffMs: 500,
  maxBackoffMs: 30_000,
  /** The page asks the server for a pong this often; a socket that has not answered by the next ping is replaced. */
  pingMs: 25_000,
  /** Down longer than this (or never up): the screens poll as they did before the socket. */
  fallbackAfterMs: 4_000,
};

export interface LiveState {
  /** Open and authenticated: events arrive. */
  connected: boolean;
  /** The socket has been down too long: screens poll. */
  polling: boolean;
}

/** What the connection needs from the page; injected so tests can run it against a real server in Node. */
export interface LiveDeps {
  url(): string;
  token(): string;
  /** The socket was refused as signed out (4401): the page checks the session as a refused call would. */
  unauthenticated(): Promise<boolean>;
  /** The role changed: reload the menu. */
  roleChanged(): void;
  /** Polling starts again: what polls is fetched once, which also starts its timers. */
  pollingResumed(): void;
  WebSocket?: new (url: string) => WebSocket;
  random?(): number;
  timing?: Partial<LiveTiming>;
}

type Listener = (events: LiveEvent[]) => void;
/** A frame the server does not keep as an event (a typing mark), whole. */
type SignalListener = (frame: Record<string, unknown>) => void;

export class LiveConnection {
  readonly state = createStore<LiveState>({ connected: false, polling: true });
  /** The highest position received: a reconnection resumes after it. */
  position: number | undefined;
  private ws: WebSocket | undefined;
  private running = false;
  private failures = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private fallback: ReturnType<typeof setTimeout> | undefined;
  private pinger: ReturnType<typeof setInterval> | undefined;
  private heard = 0;
  private pinged = 0;
  private sentToken = '';
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly signalListeners = new Map<string, Set<SignalListener>>();
  private readonly t: LiveTiming;

  constructor(private readonly deps: LiveDeps) {
    this.t = { ...LIVE_TIMING, ...deps.timing };
  }

  /** Opens the socket (again after `stop`); a running connection is left as it is. */
  start() {
    if (this.running) return;
    this.running = true;
    this.failures = 0;
    // The socket has `fallbackAfterMs` to come up before the screens poll.
    this.setState({ connected: false, polling: false });
    this.armFallback();
    this.open();
  }

  /** Closes the socket (logout, leaving the signed-in screens) until `start`; the position is forgotten. */
  stop() {
    this.running = false;
    this.position = undefined;
    clearTimeout(this.retry);
    clearTimeout(this.fallback);
    this.fallback = undefined;
    this.drop();
    // Without a socket, whatever polls goes back to polling (a screen outside the signed-in layout).
    this.setState({ connected: false, polling: true });
  }

  /** The access token changed (renewed here or in another tab): an open socket carries on with the new one. */
  tokenChanged() {
    const token = this.deps.token();
    if (!token) return this.stop();
    if (!this.state.get().connected || token === this.sentToken) return;
    this.sentToken = token;
    this.send({ t: 'auth', token });
  }

  /** Calls `fn` with the events of these kinds in each frame that has some. Answers the function that stops it. */
  subscribe(kinds: string | string[], fn: Listener): () => void {
    const list = Array.isArray(kinds) ? kinds : [kinds];
    for (const k of list) {
      let set = this.listeners.get(k);
      if (!set) this.listeners.set(k, (set = new Set()));
      set.add(fn);
    }
    return () => list.forEach((k) => this.listeners.get(k)?.delete(fn));
  }

  /** Calls `fn` with each frame of this type that is not an event (signals such as `chat.typing`). */
  onSignal(type: string, fn: SignalListener): () => void {
    let set = this.signalListeners.get(type);
    if (!set) this.signalListeners.set(type, (set = new Set()));
    set.add(fn);
    return () => this.signalListeners.get(type)?.delete(fn);
  }

  /** Sends a message of a screen's own (a typing mark) when the socket is up; dropped otherwise, as such marks are. */
  post(message: Record<string, unknown> & { t: string }) {
    if (this.state.get().connected) this.send(message);
  }

  /** The delay before reconnection attempt `n` (0-based): exponential, capped, with jitter against herds. */
  backoff(n: number) {
    const base = Math.min(this.t.maxBackoffMs, this.t.firstBackoffMs * 2 ** n);
    return Math.round(base * (0.5 + (this.deps.random ?? Math.random)() * 0.5));
  }

  private open() {
    const token = this.deps.token();
    if (!token) return this.stop();
    const Ctor = this.deps.WebSocket ?? WebSocket;
    let ws: WebSocket;
    try {
      ws = new Ctor(this.deps.url());
    } catch {
      return this.reconnect();
    }
    this.ws = ws;
    ws.onopen = () => {
      this.sentToken = this.deps.token();
      this.send({ t: 'auth', token: this.sentToken, ...(this.position !== undefined && { after: this.position }) });
    };
    ws.onmessage = (e: MessageEvent) => this.onFrame(String(e.data));
    ws.onclose = (e: CloseEvent) => {
      if (this.ws === ws) this.onClose(e.code);
    };
    // An error is always followed by a close.
    ws.onerror = () => undefined;
  }

  private onFrame(raw: string) {
    this.heard = Date.now();
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return;
    }
    switch (frame.t) {
      case 'ready':
        this.at(frame.position);
        this.failures = 0;
        clearTimeout(this.fallback);
        this.fallback = undefined;
        this.setState({ connected: true, polling: false });
        this.startPinging();
        return;
      case 'reset':
        this.at(frame.position);
        return this.dispatch([], [LIVE_RESET]);
      case 'events':
        return this.dispatch(frame.list as LiveEvent[]);
      case 'role':
        return this.deps.roleChanged();
      // 'renewed', 'pong' and 'error' need nothing more than having been heard.
      default:
        if (typeof frame.t === 'string')
          for (const fn of this.signalListeners.get(frame.t) ?? []) {
            try {
              fn(frame);
            } catch (err) {
              console.error(err);
            }
          }
    }
  }

  private at(position: unknown) {
    if (typeof position === 'number') this.position = Math.max(this.position ?? 0, position);
  }

  private dispatch(list: LiveEvent[], also: string[] = []) {
    const byKind = new Map<string, LiveEvent[]>(also.map((k) => [k, []]));
    for (const e of list) {
      this.at(e.p);
      const same = byKind.get(e.kind);
      if (same) same.push(e);
      else byKind.set(e.kind, [e]);
    }
    const called = new Map<Listener, LiveEvent[]>();
    for (const [kind, events] of byKind) {
      for (const fn of this.listeners.get(kind) ?? []) called.set(fn, [...(called.get(fn) ?? []), ...events]);
    }
    for (const [fn, events] of called) {
      try {
        fn(events);
      } catch (err) {
        console.error(err);
      }
    }
  }

  private onClose(code: number) {
    this.drop();
    if (!this.running) return;
    if (this.state.get().connected) {
      this.setState({ connected: false, polling: this.state.get().polling });
      this.armFallback();
    }
    if (code === LIVE_CLOSE.unauthenticated) {
      // Like a refused call: the session is checked (a refresh when it can); over means the page has gone to login.
      void this.deps.unauthenticated().then(
        (alive) => (alive && this.running ? this.reconnect() : this.stop()),
        () => this.stop(),
      );
      return;
    }
    this.reconnect();
  }

  private reconnect() {
    if (!this.running) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.running && this.open(), this.backoff(this.failures));
    this.failures += 1;
  }

  private armFallback() {
    if (this.fallback || this.state.get().polling) return;
    this.fallback = setTimeout(() => {
      this.fallback = undefined;
      if (!this.running || this.state.get().connected) return;
      this.setState({ connected: false, polling: true });
      this.deps.pollingResumed();
    }, this.t.fallbackAfterMs);
  }

  private startPinging() {
    clearInterval(this.pinger);
    this.pinged = 0;
    // Measured from the ping, not the clock: a hidden tab's timers may run a minute late, its socket still alive.
    this.pinger = setInterval(() => {
      // Nothing heard since the last ping: the connection is dead without having said so.
      if (this.pinged && this.heard < this.pinged) return this.onClose(LIVE_CLOSE.goingAway);
      this.pinged = Date.now();
      this.send({ t: 'ping' });
    }, this.t.pingMs);
  }

  private send(message: Record<string, unknown>) {
    if (this.ws?.readyState === 1) this.ws.send(JSON.stringify(message));
  }

  private drop() {
    clearInterval(this.pinger);
    this.pinger = undefined;
    const ws = this.ws;
    this.ws = undefined;
    if (ws && ws.readyState <= 1) ws.close();
  }

  private setState(next: LiveState) {
    const now = this.state.get();
    if (now.connected !== next.connected || now.polling !== next.polling) this.state.set(next);
  }
}

let current: LiveConnection | undefined;

/** The tab's connection, once `setLive` has made it (the app's start-up). */
export function getLive(): LiveConnection | undefined {
  return current;
}
export function setLive(connection: LiveConnection | undefined) {
  current = connection;
}

/** Whether screens should poll now: the socket is down too long, or there is none. */
export function shouldPoll(): boolean {
  return current ? current.state.get().polling : true;
}

/**
 * A query's `refetchInterval` that polls only while the socket cannot carry the changes (never while it is up, and
 * TanStack pauses it while the tab is hidden).
 */
export function fallbackPoll(ms: number): () => number | false {
  return () => (shouldPoll() ? ms : false);
}

const idle = createStore<LiveState>({ connected: false, polling: true });

/** The connection's state for a screen (an indicator, a test id). */
export function useLiveState(): LiveState {
  return useStore(current?.state ?? idle);
}
