import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/main.js';
import { postgresDb, type Db } from '../src/platform/db.js';
import { postgresAdminUrl, testDbKind, withDatabase } from './db-url.js';
import { testConfig } from './harness.js';

/**
 * Two database roles (docs/operations.md, "Database roles"): the tables' owner runs the migrations
 * (MIGRATION_DATABASE_URL), the portal connects as a role given the rights it needs by default privileges, and that
 * role cannot change or remove access-log entries: the migration takes those rights back.
 */
const suffix = randomBytes(4).toString('hex');
const owner = `portal_owner_${suffix}`;
const appRole = `portal_app_${suffix}`;
const database = `portal_roles_${suffix}`;
let admin: Db;
let portal: Db | undefined;

function as(role: string) {
  const u = new URL(withDatabase(postgresAdminUrl(), database));
  u.username = role;
  u.password = 'roles-test';
  return u.toString();
}

describe.runIf(testDbKind() === 'postgres')('database roles on PostgreSQL', () => {
  beforeAll(async () => {
    admin = postgresDb(postgresAdminUrl(), 1);
    await admin.query(`CREATE ROLE ${owner} LOGIN PASSWORD 'roles-test'`);
    await admin.query(`CREATE ROLE ${appRole} LOGIN PASSWORD 'roles-test'`);
    await admin.query(`CREATE DATABASE ${database} OWNER ${owner}`);
    // What docs/operations.md tells an operator to run once, as the owner.
    const setup = postgresDb(as(owner), 1);
    await setup.query(`GRANT USAGE ON SCHEMA public TO ${appRole}`);
    await setup.query(
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON TABLES TO ${appRole}`,
    );
    await setup.query(`ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} GRANT USAGE, SELECT ON SEQUENCES TO ${appRole}`);
    await setup.close();
    const { config } = testConfig({ DATABASE_URL: as(appRole), MIGRATION_DATABASE_URL: as(owner) });
    portal = await openDatabase(config);
  }, 120_000);

  afterAll(async () => {
    await portal?.close();
    if (!admin) return;
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS ${appRole}`);
    await admin.query(`DROP ROLE IF EXISTS ${owner}`);
    await admin.close();
  });

  it('migrates as the owner; the portal role reads and writes the tables but only appends to the access log', async () => {
    const [who] = await portal!.query<{ current_user: string }>('SELECT current_user');
    expect(who!.current_user).toBe(appRole);
    const [tableOwner] = await portal!.query<{ o: string }>(
      `SELECT tableowner AS o FROM pg_tables WHERE tablename = 'access_log'`,
    );
    expect(tableOwner!.o).toBe(owner);
    // Ordinary tables: the rights default privileges gave.
    await portal!.query(`UPDATE menus SET sort = sort WHERE code = 'dashboard'`);
    // The access log: insert and read, nothing else.
    await portal!.query(`INSERT INTO access_log (owner_org_id, action) VALUES (1, 'case.view')`);
    expect((await portal!.query('SELECT id FROM access_log')).length).toBe(1);
    for (const sql of ['UPDATE access_log SET address = NULL', 'DELETE FROM access_log', 'TRUNCATE access_log'])
      await expect(portal!.query(sql), sql).rejects.toThrow(/permission denied/);
    // The owner has the rights, and the trigger still refuses.
    const ownerDb = postgresDb(as(owner), 1);
    try {
      await expect(ownerDb.query('DELETE FROM access_log')).rejects.toThrow(/append-only/);
      await expect(ownerDb.query('TRUNCATE access_log')).rejects.toThrow(/append-only/);
    } finally {
      await ownerDb.close();
    }
    expect((await portal!.query('SELECT id FROM access_log')).length).toBe(1);
  });
});
