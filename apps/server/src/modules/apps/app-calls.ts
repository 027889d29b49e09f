import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.js';
import { appCallsRepository as repo, type AppCallCount } from './app-calls.repository.js';

export interface AppCallLimits {
  /** Calls per minute of one app, all its users together, on the whole site. */
  perApp: number;
  /** Calls per minute of one app for one user. */
  perUser: number;
}

const MINUTE_MS = 60_000;
/** What a process keeps counting while the database cannot be written (then the oldest counts are dropped). */
const MAX_PENDING = 50_000;

type Counts = { apps: Map<number, number>; users: Map<string, number> };
const noCounts = (): Counts => ({ apps: new Map(), users: new Map() });
const userKey = (appId: number, userId: number) => `${appId}:${userId}`;
const bump = <K>(m: Map<K, number>, k: K, n = 1) => m.set(k, (m.get(k) ?? 0) + n);
const countKey = (c: AppCallCount) => `${c.organizationId}|${c.minute}|${c.appId}|${c.userId}|${c.call}`;

/**
 * The apps' calls: every call an app makes with a user's token is counted per minute, organization, app, user and
 * call, for the organization's administrators, and the same counts are the per-app and per-user limits. A process
 * writes its counts about once a second in one statement and reads back what the whole site counted this minute,
 * so the limits hold across processes to within about a second of traffic (docs/architecture.md, "Apps' calls").
 */
export class AppCallLog {
  private pending = new Map<string, AppCallCount>();
  /** The current minute: what the site had counted at the last write, and what this process admitted since. */
  private minute = 0;
  private site: Counts = noCounts();
  private admitted: Counts = noCounts();
  /** Admitted while a write is on its way (counted until the site's totals that include them are read). */
  private writing: Counts = noCounts();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly limits: AppCallLimits,
    private readonly log: FastifyBaseLogger,
    private readonly flushMs = 1000,
  ) {}

  private roll(now: number) {
    const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    if (minute === this.minute) return minute;
    this.minute = minute;
    this.site = noCounts();
    this.admitted = noCounts();
    this.writing = noCounts();
    return minute;
  }

  /**
   * Counts a call against the app's and the user's limits: 0 when it may go on, else the seconds until the next
   * minute (its `Retry-After`).
   */
  admit(appId: number, userId: number, now = Date.now()): number {
    const minute = this.roll(now);
    const key = userKey(appId, userId);
    const sum = (pick: (c: Counts) => number) => pick(this.site) + pick(this.writing) + pick(this.admitted);
    const appCalls = sum((c) => c.apps.get(appId) ?? 0);
    const userCalls = sum((c) => c.users.get(key) ?? 0);
    if (appCalls >= this.limits.perApp || userCalls >= this.limits.perUser)
      return Math.max(1, Math.ceil((minute + MINUTE_MS - now) / 1000));
    bump(this.admitted.apps, appId);
    bump(this.admitted.users, key);
    return 0;
  }

  /** Notes a finished call for the log (refused: answered with an error). */
  record(
    c: { organizationId: number; appId: number; userId: number; call: string; refused: boolean },
    now = Date.now(),
  ) {
    if (this.closed) return;
    const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    this.add({ ...c, minute, calls: 1, refused: c.refused ? 1 : 0 });
    this.schedule();
  }

  /** Adds counts to those waiting for the next write. */
  private add(count: AppCallCount) {
    const key = countKey(count);
    const entry = this.pending.get(key);
    if (entry) {
      entry.calls += count.calls;
      entry.refused += count.refused;
      return;
    }
    if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
    this.pending.set(key, { ...count });
  }

  private schedule() {
    if (this.closed) return;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushMs).unref();
  }

  /** Writes what was counted and reads back the site's totals of this minute for the apps it names. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write() {
    const counts = [...this.pending.values()];
    this.pending = new Map();
    const minute = this.minute;
    const inFlight = this.admitted;
    this.admitted = noCounts();
    for (const [k, n] of inFlight.apps) bump(this.writing.apps, k, n);
    for (const [k, n] of inFlight.users) bump(this.writing.users, k, n);
    try {
      await repo.add(this.db, counts);
      // The apps this process counted this minute: what the others added since is learnt with each write.
      const appIds = [...new Set([...counts.map((c) => c.appId), ...inFlight.apps.keys(), ...this.site.apps.keys()])];
      const totals = appIds.length && minute ? await repo.minuteTotals(this.db, minute, appIds) : [];
      if (this.minute !== minute) return;
      for (const appId of appIds) this.site.apps.set(appId, 0);
      for (const t of totals) {
        bump(this.site.apps, Number(t.app_id), t.calls);
        this.site.users.set(userKey(Number(t.app_id), Number(t.user_id)), t.calls);
      }
      this.writing = noCounts();
    } catch (err) {
      // Kept for the next write: the log loses nothing while the database is away for a moment.
      for (const c of counts) this.add(c);
      this.log.error({ err }, 'apps: the call log could not be written');
      this.schedule();
    }
  }

  /** At shutdown: what was counted is written. */
  async close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
