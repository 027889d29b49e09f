import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache.js';

describe('rows held like sessions', () => {
  it('answers a row from memory until a change notification, holds no miss, and drops a load that raced a change', async () => {
    const cache = new SessionCache({ ttlMs: 60_000, maxEntries: 10 });
    let loads = 0;
    const load = async () => {
      loads += 1;
      return { code: 'app1', loads };
    };
    expect(await cache.held('app:app1', load)).toEqual({ code: 'app1', loads: 1 });
    expect(await cache.held('app:app1', load)).toEqual({ code: 'app1', loads: 1 });
    cache.clear();
    expect(await cache.held('app:app1', load)).toEqual({ code: 'app1', loads: 2 });

    let misses = 0;
    const miss = async () => {
      misses += 1;
      return undefined;
    };
    await cache.held('app:none', miss);
    await cache.held('app:none', miss);
    expect(misses).toBe(2);

    // A change while a row is read: what was read may be the old row, so it is not kept.
    let release!: () => void;
    const slow = cache.held('user:u1', async () => {
      await new Promise<void>((r) => (release = r));
      return { status: 'active' };
    });
    cache.clear();
    release();
    await slow;
    let again = 0;
    await cache.held('user:u1', async () => {
      again += 1;
      return { status: 'disabled' };
    });
    expect(again).toBe(1);
  });

  it('holds nothing when the cache is off', async () => {
    const cache = new SessionCache({ ttlMs: 0, maxEntries: 10 });
    let loads = 0;
    const load = async () => ++loads;
    await cache.held('k', load);
    await cache.held('k', load);
    expect(loads).toBe(2);
  });
});
