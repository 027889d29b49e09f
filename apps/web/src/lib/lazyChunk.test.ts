import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadChunk, SERVER_BACK_DELAYS_MS } from './lazyChunk';

afterEach(() => vi.useRealTimers());

describe('loadChunk', () => {
  it('answers the code when it loads', async () => {
    const reload = vi.fn();
    await expect(loadChunk(() => Promise.resolve('code'), { reload })).resolves.toBe('code');
    expect(reload).not.toHaveBeenCalled();
  });

  it('waits while the server is away, then loads the code again instead of failing', async () => {
    vi.useFakeTimers();
    const load = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValue('code');
    const up = [false, false, true];
    const answers = vi.fn(() => Promise.resolve(up.shift() ?? true));
    const reload = vi.fn();
    const loaded = loadChunk(load, { answers, reload });
    // Two looks while the server is down, one doubled delay apart; the code is asked for again only once it is up.
    await vi.advanceTimersByTimeAsync(SERVER_BACK_DELAYS_MS.first);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(SERVER_BACK_DELAYS_MS.first * 2);
    await expect(loaded).resolves.toBe('code');
    expect(answers).toHaveBeenCalledTimes(3);
    expect(load).toHaveBeenCalledTimes(2);
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads the page when the code still fails with the server up (a new release renamed it), and never rejects', async () => {
    const load = vi.fn().mockRejectedValue(new TypeError('Failed to fetch dynamically imported module'));
    const reload = vi.fn();
    let settled = false;
    void loadChunk(load, { answers: () => Promise.resolve(true), reload }).finally(() => (settled = true));
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
