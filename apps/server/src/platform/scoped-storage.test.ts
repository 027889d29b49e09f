import { describe, expect, it } from 'vitest';
import { ScopedStorage } from './scoped-storage.js';

const tick = (ms = 1) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ScopedStorage', () => {
  it('gives each run its own store across awaits, and none outside a run', async () => {
    const storage = new ScopedStorage<string>();
    expect(storage.getStore()).toBeUndefined();
    const seen: (string | undefined)[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((name, i) =>
        storage.run(name, async () => {
          await tick(3 - i);
          seen.push(storage.getStore());
          await tick();
          seen.push(storage.getStore());
        }),
      ),
    );
    expect(seen.sort()).toEqual(['a', 'a', 'b', 'b', 'c', 'c']);
    expect(storage.getStore()).toBeUndefined();
  });

  it('keeps a long run its store when a shorter one ends first, and works again after all ended', async () => {
    const storage = new ScopedStorage<number>();
    let release!: () => void;
    const long = storage.run(1, async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return storage.getStore();
    });
    await storage.run(2, async () => {
      await tick();
      return storage.getStore();
    });
    release();
    expect(await long).toBe(1);
    expect(await storage.run(3, async () => (await tick(), storage.getStore()))).toBe(3);
    expect(storage.getStore()).toBeUndefined();
  });

  it('ends a run that fails, and passes its error on', async () => {
    const storage = new ScopedStorage<string>();
    await expect(
      storage.run('x', async () => {
        await tick();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await storage.run('y', async () => storage.getStore())).toBe('y');
  });
});
