import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db.js';
import { FIRST_RUN_DELAY_MS, Housekeeping } from './housekeeping.js';

// The run records go to a database stand-in that grants every claim: this is about when tasks run, not what they
// write (test/upkeep.test.ts claims on a real database).
const db = { query: vi.fn(async () => [{ name: 'claimed' }]) } as unknown as Db;
const log = { error: vi.fn(), warn: vi.fn(), info: vi.fn() } as unknown as FastifyBaseLogger;

afterEach(() => {
  vi.useRealTimers();
});

describe('Housekeeping.start', () => {
  it('lets the portal answer first: the first round runs after the delay, then at each interval', async () => {
    vi.useFakeTimers();
    const upkeep = new Housekeeping(db, log);
    const task = vi.fn(async () => ({ done: true }));
    upkeep.add('mailRetry', 60_000, task);
    upkeep.start();
    await vi.advanceTimersByTimeAsync(FIRST_RUN_DELAY_MS - 1);
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(task).toHaveBeenCalledTimes(2);
    await upkeep.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(task).toHaveBeenCalledTimes(2);
  });

  it('stops before its first round too', async () => {
    vi.useFakeTimers();
    const upkeep = new Housekeeping(db, log);
    const task = vi.fn(async () => ({}));
    upkeep.add('blobDeletions', 3_600_000, task);
    upkeep.start();
    await upkeep.stop();
    await vi.advanceTimersByTimeAsync(FIRST_RUN_DELAY_MS * 2);
    expect(task).not.toHaveBeenCalled();
  });
});
