import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { postgresDb } from '../src/platform/db.js';
import { migrateAll } from '../src/migrations.js';
import { postgresBinaries, startThrowawayPostgres } from '../../../scripts/throwaway-postgres.mjs';

/**
 * `npm run cluster` on a machine where no PostgreSQL answers starts one of its own (docs/operations.md): made with
 * Debian's programs in a temporary folder, on a free loopback port, as the `postgres` account when run as root; the
 * portal migrates into it; stopping removes it.
 */
describe.runIf(postgresBinaries() !== undefined)('a throwaway PostgreSQL', () => {
  it('starts, takes the migrations, and is gone once stopped', async () => {
    const pg = await startThrowawayPostgres();
    const db = postgresDb(pg.adminUrl, 2);
    try {
      const [row] = await db.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
      expect(row!.v).toMatch(/^\d+/);
      await migrateAll(db);
      expect((await db.query('SELECT code FROM menus WHERE code = $1', ['ownSpace.accessLog'])).length).toBe(1);
    } finally {
      await db.close();
      await pg.stop();
    }
    expect(existsSync(pg.dir)).toBe(false);
    const after = postgresDb(pg.adminUrl, 1);
    await expect(after.query('SELECT 1')).rejects.toThrow();
    await after.close();
  }, 90_000);
});
