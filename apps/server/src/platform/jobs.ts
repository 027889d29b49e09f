import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from './db.js';
import { newId } from './crypto.js';

type Handler = (payload: Record<string, unknown>) => Promise<void>;

export interface JobOptions {
  concurrency: number;
  pollMs: number;
  maxAttempts: number;
  /**
   * A running job's claim lasts this long unless its process renews it (every third of it, while the job runs):
   * the job of a process that died is queued again once its claim has lapsed.
   */
  leaseMs: number;
}

/**
 * Durable background jobs in PostgreSQL. A job is claimed with FOR UPDATE SKIP LOCKED, so several
 * processes share the queue; a failed job is retried with back-off, up to a limit. A job whose process died while
 * running it is run again (handlers are written to be run again: they finish what is missing), and only the
 * claim that runs a job records its outcome.
 */
export class Jobs {
  private readonly handlers = new Map<string, Handler>();
  private timer?: NodeJS.Timeout;
  private recovery?: NodeJS.Timeout;
  private running = 0;
  /** Set by `stop`: no job is claimed after it, so none runs against a closing worker or database. */
  private stopped = false;
  private wake?: () => void;
  private readonly opts: JobOptions;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    opts: Partial<JobOptions> = {},
  ) {
    this.opts = { concurrency: 1, pollMs: 1000, maxAttempts: 3, leaseMs: 60_000, ...opts };
  }

  handle(kind: string, handler: Handler) {
    this.handlers.set(kind, handler);
  }

  /**
   * Adds a job. Given the caller's transaction, the job exists exactly when what it works on does; call `wakeUp`
   * after the commit so it starts at once. A delay makes it wait that long first (a scheduled retry).
   */
  async enqueue(kind: string, payload: Record<string, unknown>, tx?: Queryable, delayMs = 0) {
    await (tx ?? this.db).query(
      `INSERT INTO jobs (kind, payload, run_after) VALUES ($1, $2, now() + make_interval(secs => $3::double precision))`,
      [kind, JSON.stringify(payload), delayMs / 1000],
    );
    if (!tx && delayMs <= 0) this.wakeUp();
  }

  /** Adds jobs of one kind in one statement (in the caller's transaction; `wakeUp` after its commit). */
  async enqueueMany(kind: string, payloads: Array<Record<string, unknown>>, tx: Queryable) {
    if (!payloads.length) return;
    await tx.query(
      `INSERT INTO jobs (kind, payload, run_after)
       SELECT $1, p::jsonb, now() FROM unnest($2::text[]) WITH ORDINALITY AS x(p, n) ORDER BY n`,
      [kind, payloads.map((p) => JSON.stringify(p))],
    );
  }

  /** Looks for work now instead of at the next poll. */
  wakeUp() {
    this.wake?.();
  }

  start() {
    this.stopped = false;
    const loop = async () => {
      while (!this.stopped && this.running < this.opts.concurrency && (await this.runOne())) {
        /* keep draining */
      }
    };
    // The embedded database has one process, this one: whatever it finds running was left by a crash.
    const recover = (leaseMs: number) =>
      this.recoverLapsed(leaseMs)
        .then((requeued) => (requeued ? loop() : undefined))
        .catch((err) => this.log.error({ err }, 'job recovery failed'));
    void recover(this.db.kind === 'pglite' ? 0 : this.opts.leaseMs);
    this.recovery = setInterval(() => void recover(this.opts.leaseMs), this.opts.leaseMs / 2);
    this.recovery.unref();
    this.wake = () => void loop();
    this.timer = setInterval(() => void loop(), this.opts.pollMs);
    this.timer.unref();
  }

  /**
   * Claims no more jobs and waits for the running ones. A draining loop used to claim the next job as soon as the
   * one `stop` waited for ended, and ran it while the app closed around it.
   */
  async stop() {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.recovery);
    this.wake = undefined;
    while (this.running > 0) await new Promise((r) => setTimeout(r, 20));
  }

  /**
   * Running jobs whose claim lapsed (not renewed for `leaseMs`: their process died) go back to the queue, or fail
   * when they used their attempts. Answers how many were queued again.
   */
  async recoverLapsed(leaseMs = this.opts.leaseMs): Promise<number> {
    const rows = await this.db.query<{ id: number; kind: string; status: string }>(
      `UPDATE jobs SET status = CASE WHEN attempts >= $2 THEN 'failed' ELSE 'queued' END, claimed_by = NULL,
              run_after = now(), error = 'the process running it stopped'
        WHERE status = 'running' AND locked_at <= now() - make_interval(secs => $1::double precision / 1000)
        RETURNING id, kind, status`,
      [leaseMs, this.opts.maxAttempts],
    );
    for (const r of rows) this.log.warn({ job: r.id, kind: r.kind, now: r.status }, 'job of a stopped process');
    return rows.filter((r) => r.status === 'queued').length;
  }

  /** Claims and runs one job; false when none is ready. */
  async runOne(): Promise<boolean> {
    const kinds = [...this.handlers.keys()];
    if (!kinds.length || this.stopped) return false;
    this.running += 1;
    try {
      const claim = newId();
      const [job] = await this.db.query<{
        id: number;
        kind: string;
        payload: Record<string, unknown>;
        attempts: number;
      }>(
        `UPDATE jobs SET status = 'running', locked_at = now(), attempts = attempts + 1, claimed_by = $2
          WHERE id = (SELECT id FROM jobs WHERE status = 'queued' AND run_after <= now() AND kind = ANY ($1::text[])
                       ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1)
        RETURNING id, kind, payload, attempts`,
        [kinds, claim],
      );
      if (!job) return false;
      // Stopped while the claim was on its way: the job goes back untouched, for this process's next start or another.
      if (this.stopped) {
        await this.db.query(
          `UPDATE jobs SET status = 'queued', attempts = attempts - 1, locked_at = NULL, claimed_by = NULL
            WHERE id = $1 AND claimed_by = $2`,
          [job.id, claim],
        );
        return false;
      }
      // A claimed job says more may be waiting: another drain starts beside this one while there is room, so a
      // burst is worked at the runner's full concurrency at once, not one more drain per poll.
      if (this.running < this.opts.concurrency) this.wake?.();
      const renewal = setInterval(
        () =>
          void this.db
            .query(`UPDATE jobs SET locked_at = now() WHERE id = $1 AND claimed_by = $2`, [job.id, claim])
            .catch(() => undefined),
        this.opts.leaseMs / 3,
      );
      renewal.unref();
      try {
        await this.handlers.get(job.kind)!(
          typeof job.payload === 'string' ? (JSON.parse(job.payload) as Record<string, unknown>) : job.payload,
        );
        await this.db.query(`UPDATE jobs SET status = 'done' WHERE id = $1 AND claimed_by = $2`, [job.id, claim]);
      } catch (err) {
        this.log.warn({ err, job: job.id, kind: job.kind }, 'job failed');
        const last = job.attempts >= this.opts.maxAttempts;
        await this.db.query(
          `UPDATE jobs SET status = $3, error = $4, run_after = now() + make_interval(secs => $5)
            WHERE id = $1 AND claimed_by = $2`,
          [job.id, claim, last ? 'failed' : 'queued', String(err).slice(0, 1000), 5 * 2 ** job.attempts],
        );
      } finally {
        clearInterval(renewal);
      }
      return true;
    } finally {
      this.running -= 1;
    }
  }

  /** Runs jobs until none is ready (tests and the command line). */
  async drain() {
    while (await this.runOne()) {
      /* next */
    }
  }
}
