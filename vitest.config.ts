import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One runner for every suite. `unit` needs nothing; `integration` talks to a real database
 * (PGlite, or PostgreSQL when TEST_DB=postgres); the end-to-end suite drives Chromium.
 */
export default defineConfig({
  test: {
    // At least two workers: on a two-core machine Vitest's default (cores - 1) runs files one at a time, while the
    // suites wait on the database and timers as much as they compute (CI there: integration 366 s → 227 s on PGlite,
    // 174 s → 110 s on PostgreSQL, unit 96 s → 63 s). The end-to-end project stays one file at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          // Some unit tests compute for a while (the API document's lint, mesh layouts, the source scans): the default
          // 5 s fails them on a busy two-core machine.
          testTimeout: 20_000,
          include: [
            'packages/contracts/src/**/*.test.ts',
            'packages/mesh/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
          ],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/test/**/*.test.ts'],
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.spec.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
