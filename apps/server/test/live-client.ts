import WebSocket from 'ws';

/** One live event as a socket receives it. */
export interface LiveEvent {
  p: number;
  kind: string;
  subject: string | null;
  data: Record<string, unknown>;
}

/**
 * A socket to the portal's live endpoint as the web app opens one: the token in the first message, never in the
 * address. Keeps every frame it received; `next` waits for one that matches.
 */
export class LiveClient {
  readonly frames: Array<Record<string, unknown>> = [];
  readonly events: LiveEvent[] = [];
  closed: { code: number; reason: string } | undefined;
  /** The headers of the upgrade's answer (behind a balancer: which process took the socket). */
  upgradeHeaders: Record<string, string | string[] | undefined> = {};
  private waiters: Array<() => void> = [];
  private readonly ws: WebSocket;
  readonly opened: Promise<void>;

  constructor(baseUrl: string, opts: { origin?: string; address?: string } = {}) {
    const url = `${baseUrl.replace(/^http/, 'ws')}/ws`;
    this.ws = new WebSocket(url, { headers: opts.origin ? { origin: opts.origin } : {}, perMessageDeflate: false });
    this.opened = new Promise((ok, fail) => {
      this.ws.once('open', () => ok());
      this.ws.once('unexpected-response', (_req, res) => fail(new Error(`upgrade refused: ${res.statusCode}`)));
      this.ws.once('error', fail);
    });
    this.opened.catch(() => undefined);
    this.ws.once('upgrade', (res) => (this.upgradeHeaders = res.headers));
    this.ws.on('message', (data) => {
      const frame = JSON.parse((data as Buffer).toString('utf8')) as Record<string, unknown>;
      this.frames.push(frame);
      if (frame.t === 'events') this.events.push(...(frame.list as LiveEvent[]));
      this.wake();
    });
    this.ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  private wake() {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }

  send(message: unknown) {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  sendRaw(data: Buffer | string) {
    this.ws.send(data);
  }

  /** Authenticates and waits until the server says it is live (or closes). */
  async auth(token: string, after?: number) {
    await this.opened;
    this.send({ t: 'auth', token, ...(after !== undefined && { after }) });
    return this.until(() => this.frames.find((f) => f.t === 'ready' || f.t === 'reset') ?? this.closed, 'ready');
  }

  /** Waits until `found` answers something, for at most `ms`. */
  async until<T>(found: () => T | undefined, what: string, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = found();
      if (value !== undefined && value !== false) return value;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`live: no ${what} within ${ms} ms (frames: ${JSON.stringify(this.frames).slice(0, 500)})`);
      await new Promise<void>((ok) => {
        const timer = setTimeout(ok, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          ok();
        });
      });
    }
  }

  /** Waits for the socket to close; answers its code and reason. */
  whenClosed(ms = 10_000) {
    return this.until(() => this.closed, 'close', ms);
  }

  close() {
    this.ws.close();
  }
}
