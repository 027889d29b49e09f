import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from './db.js';

type Handler = (payload: Record<string, unknown>) => Promise<void>;

/**
 * Durable background jobs in PostgreSQL. A job is claimed with FOR UPDATE SKIP LOCKED, so several
 * processes share the queue; a failed job is retried with back-off, up to a limit.
 */
export class Jobs {
  private readonly handlers = new Map<string, Handler>();
  private timer?: NodeJS.Timeout;
  private running = 0;
  private wake?: () => void;

  constructor(private readonly db: Db, private readonly log: FastifyBaseLogger, private readonly opts = { concurrency: 1, pollMs: 1000, maxAttempts: 3 }) {}

  handle(kind: string, handler: Handler) {
    this.handlers.set(kind, handler);
  }

  async enqueue(kind: string, payload: Record<string, unknown>, tx: Queryable = this.db) {
    await tx.query('INSERT INTO jobs (kind, payload) VALUES ($1, $2)', [kind, JSON.stringify(payload)]);
    this.wake?.();
  }

  start() {
    const loop = async () => {
      while (this.running < this.opts.concurrency && (await this.runOne())) {
        /* keep draining */
      }
    };
    this.wake = () => void loop();
    this.timer = setInterval(() => void loop(), this.opts.pollMs);
    this.timer.unref();
  }

  async stop() {
    clearInterval(this.timer);
    this.wake = undefined;
    while (this.running > 0) await new Promise((r) => setTimeout(r, 20));
  }

  /** Claims and runs one job; false when none is ready. */
  async runOne(): Promise<boolean> {
    const kinds = [...this.handlers.keys()];
    if (!kinds.length) return false;
    this.running += 1;
    try {
      const [job] = await this.db.query<{ id: number; kind: string; payload: Record<string, unknown>; attempts: number }>(
        `UPDATE jobs SET status = 'running', locked_at = now(), attempts = attempts + 1
          WHERE id = (SELECT id FROM jobs WHERE status = 'queued' AND run_after <= now() AND kind = ANY ($1::text[])
                       ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1)
        RETURNING id, kind, payload, attempts`,
        [kinds],
      );
      if (!job) return false;
      try {
        await this.handlers.get(job.kind)!(typeof job.payload === 'string' ? JSON.parse(job.payload) : job.payload);
        await this.db.query(`UPDATE jobs SET status = 'done' WHERE id = $1`, [job.id]);
      } catch (err) {
        this.log.warn({ err, job: job.id, kind: job.kind }, 'job failed');
        const last = job.attempts >= this.opts.maxAttempts;
        await this.db.query(
          `UPDATE jobs SET status = $2, error = $3, run_after = now() + make_interval(secs => $4) WHERE id = $1`,
          [job.id, last ? 'failed' : 'queued', String(err).slice(0, 1000), 5 * 2 ** job.attempts],
        );
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
