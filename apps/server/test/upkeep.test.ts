import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../src/platform/db.js';
import { Housekeeping } from '../src/platform/housekeeping.js';
import { freshDb } from './harness.js';

/**
 * Upkeep runs once per site (docs/operations.md): processes on one database share each task's rounds through
 * `job_runs`, and one takes over when the one that ran them is gone.
 */
const log = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;
const EVERY_MS = 1_000;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

let db: Db;
beforeAll(async () => {
  db = await freshDb();
});
afterAll(async () => {
  await db.close();
});

/** A process's upkeep with one task, counting its runs. */
function process(name: string) {
  const upkeep = new Housekeeping(db, log);
  const runs: number[] = [];
  upkeep.add(name, EVERY_MS, async () => {
    runs.push(Date.now());
    return { ok: true };
  });
  return { upkeep, runs };
}

describe('upkeep on several processes', () => {
  it('runs each round once for the site, and goes on when the process that ran it stops', async () => {
    const a = process('siteTask');
    const b = process('siteTask');
    const c = process('siteTask');
    const all = () => a.runs.length + b.runs.length + c.runs.length;
    a.upkeep.start(0);
    await pause(150);
    b.upkeep.start(0);
    c.upkeep.start(0);
    // Each process's first round runs at its start; the later rounds are the site's, about one a second, not three.
    await pause(300);
    expect(all()).toBe(3);
    await pause(EVERY_MS * 3);
    expect(all() - 3).toBeGreaterThanOrEqual(2);
    expect(all() - 3).toBeLessThanOrEqual(4);
    const [row] = await db.query<{ last_ok: boolean }>(`SELECT last_ok FROM job_runs WHERE name = 'siteTask'`);
    expect(row!.last_ok).toBe(true);

    // The processes that ran it stop (a crash or a rolling restart): the one left takes the next rounds.
    const ranBefore = c.runs.length;
    await a.upkeep.stop();
    await b.upkeep.stop();
    await pause(EVERY_MS * 2 + 300);
    expect(c.runs.length).toBeGreaterThan(ranBefore);
    await c.upkeep.stop();
  });

  it('a process that starts runs each task at once, even one the site ran a moment ago', async () => {
    await db.query(`INSERT INTO job_runs (name, last_started_at, last_finished_at) VALUES ('justRan', now(), now())`);
    const late = process('justRan');
    late.upkeep.start(0);
    await pause(400);
    expect(late.runs.length).toBe(1);
    await late.upkeep.stop();
  });

  it('a task asked for by name runs at once, whoever ran it last', async () => {
    const a = process('askedTask');
    const b = process('askedTask');
    expect(await a.upkeep.run('askedTask')).toEqual({ ok: true });
    expect(await b.upkeep.run('askedTask')).toEqual({ ok: true });
    expect(a.runs.length + b.runs.length).toBe(2);
  });
});
