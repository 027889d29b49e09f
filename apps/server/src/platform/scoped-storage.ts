import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An AsyncLocalStorage that is on only while one of its runs is in progress. On Node 20 an enabled store makes
 * every promise in the process pay for carrying the context (about a tenth of a simple request's CPU); the runs
 * here (transactions, uploads) are a small part of the traffic, so the rest goes without it. A run's promise ends
 * its use of the store: once none is running, the store is disabled, and the next run enables it again.
 */
export class ScopedStorage<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private running = 0;

  getStore(): T | undefined {
    return this.storage.getStore();
  }

  async run<R>(store: T, fn: () => Promise<R>): Promise<R> {
    this.running += 1;
    try {
      return await this.storage.run(store, fn);
    } finally {
      this.running -= 1;
      if (this.running === 0) this.storage.disable();
    }
  }
}
