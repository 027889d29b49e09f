import { describe, expect, it } from 'vitest';
import { MutationObserver, QueryClient, type MutationObserverOptions } from '@tanstack/react-query';
import { withRefresh } from './mutations';

const run = <TData, TVariables>(options: MutationObserverOptions<TData, Error, TVariables>, variables: TVariables) =>
  new MutationObserver(new QueryClient(), options).mutate(variables);

describe('a mutation hook’s refresh and the screen’s reactions', () => {
  it('refreshes first, then reacts; on failure only the settled refresh and reactions run', async () => {
    const seen: string[] = [];
    const options = withRefresh<string, number>(
      {
        onSuccess: (data, n) => void seen.push(`toast ${data} ${n}`),
        onError: () => void seen.push('error shown'),
        onSettled: () => void seen.push('settled'),
      },
      { success: (data) => void seen.push(`refresh ${data}`), settled: (n) => void seen.push(`reload ${n}`) },
    );
    await run({ ...options, mutationFn: (n: number) => Promise.resolve(`ok${n}`) }, 1);
    expect(seen).toEqual(['refresh ok1', 'toast ok1 1', 'reload 1', 'settled']);

    seen.length = 0;
    await expect(run({ ...options, mutationFn: () => Promise.reject(new Error('no')) }, 2)).rejects.toThrow('no');
    expect(seen).toEqual(['error shown', 'reload 2', 'settled']);
  });

  it('stays pending until a refresh it was given as a promise resolves', async () => {
    let refreshed = false;
    const options = withRefresh<null, void>(undefined, {
      settled: () => new Promise<void>((resolve) => setTimeout(() => resolve(void (refreshed = true)), 20)),
    });
    await run({ ...options, mutationFn: () => Promise.resolve(null) }, undefined);
    expect(refreshed).toBe(true);
  });
});
