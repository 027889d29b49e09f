import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db.js';

/** How long after start-up the first round of upkeep runs. */
export const FIRST_RUN_DELAY_MS = 2_000;
/**
 * A scheduled round runs only when the site's last start of the task is at least this share of its interval ago:
 * every process keeps its timers, the first to come claims the round, and the others' timers find it taken.
 */
export const CLAIM_SHARE = 0.9;

/** Asked for by name or a process's first round (both always run), or a later timer round (claimed for the site). */
type Round = 'asked' | 'first' | 'scheduled';

interface Task {
  everyMs: number;
  run: () => Promise<unknown>;
  timer?: NodeJS.Timeout;
  running?: Promise<unknown>;
}

/**
 * Periodic upkeep (recycle-bin retention, abandoned uploads, mail retries…), run once per site: every process has
 * the timers, and a round is claimed in `job_runs` (one statement, so two processes never both claim it); when the
 * process that ran it last is gone, the next one whose timer comes takes over. Each run is recorded in `job_runs`, a failure is logged as an error with how many runs in a row failed, and the health
 * call names the tasks whose last run failed, so a stuck job shows instead of failing silently.
 */
export class Housekeeping {
  private readonly tasks = new Map<string, Task>();
  private readonly failing = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  add(name: string, everyMs: number, run: () => Promise<unknown>) {
    this.tasks.set(name, { everyMs, run });
  }

  /** The tasks whose last run in this process failed. */
  failingTasks(): string[] {
    return [...this.failing];
  }

  /** Runs one task now (at most one run of a task at a time) and records the outcome; answers what it returned. */
  async run(name: string): Promise<unknown> {
    return this.runTask(name, 'asked');
  }

  /**
   * A timer's round: skipped (undefined) when another process of the site ran the task within the interval. The first
   * round after start-up always runs: a process starts after a crash or a release, and what a killed process left (a
   * purge cut short, bytes whose deletion it did not reach) is taken up at once rather than an interval later.
   */
  private async runTask(name: string, round: Round): Promise<unknown> {
    const task = this.tasks.get(name);
    if (!task) throw new Error(`unknown housekeeping task: ${name}`);
    if (task.running) return task.running;
    task.running = this.record(name, task, round).finally(() => (task.running = undefined));
    return task.running;
  }

  /**
   * Runs every task now-ish, then at its interval. The first round waits `firstRunDelayMs`: at start-up the portal
   * answers first (on the embedded database, a dozen upkeep statements would otherwise stand before the first
   * request on its one connection).
   */
  start(firstRunDelayMs = FIRST_RUN_DELAY_MS) {
    for (const [name, task] of this.tasks) {
      task.timer = setTimeout(() => {
        void this.runTask(name, 'first').catch(() => undefined);
        task.timer = setInterval(() => void this.runTask(name, 'scheduled').catch(() => undefined), task.everyMs);
        task.timer.unref();
      }, firstRunDelayMs);
      task.timer.unref();
    }
  }

  async stop() {
    for (const task of this.tasks.values()) {
      // A timer is cleared by either call, whichever kind it is now.
      clearTimeout(task.timer);
      await task.running?.catch(() => undefined);
    }
  }

  private async record(name: string, task: Task, round: Round) {
    const claimed = await this.db.query(
      `INSERT INTO job_runs (name, last_started_at) VALUES ($1, now())
       ON CONFLICT (name) DO UPDATE SET last_started_at = now()
        WHERE $2 <> 'scheduled' OR job_runs.last_started_at <= now() - make_interval(secs => $3::double precision)
       RETURNING name`,
      [name, round, (task.everyMs * CLAIM_SHARE) / 1000],
    );
    if (!claimed.length) return undefined;
    try {
      const result = await task.run();
      this.failing.delete(name);
      await this.db.query(
        `UPDATE job_runs SET last_finished_at = now(), last_ok = true, last_error = NULL, consecutive_failures = 0,
                details = $2::jsonb
          WHERE name = $1`,
        [name, JSON.stringify(result ?? {})],
      );
      return result;
    } catch (err) {
      this.failing.add(name);
      const [row] = await this.db
        .query<{ consecutive_failures: number }>(
          `UPDATE job_runs SET last_finished_at = now(), last_ok = false, last_error = $2,
                  consecutive_failures = consecutive_failures + 1
            WHERE name = $1
            RETURNING consecutive_failures`,
          [name, String(err).slice(0, 1000)],
        )
        .catch(() => []);
      this.log.error({ err, task: name, consecutiveFailures: row?.consecutive_failures }, 'housekeeping task failed');
      throw err;
    }
  }
}
