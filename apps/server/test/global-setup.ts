import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { pgliteDb, pgliteExtensions, postgresDb } from '../src/platform/db.js';
import { migrateAll } from '../src/migrations.js';
import { testDbKind, postgresAdminUrl, withDatabase } from './db-url.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

/**
 * Migrates once into a template that every test file clones: a PGlite data-folder dump,
 * or a PostgreSQL template database.
 */
export default async function setup(project: TestProject) {
  if (testDbKind() === 'postgres') {
    const name = `portal_tmpl_${process.pid}`;
    const admin = postgresDb(postgresAdminUrl(), 1);
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    const db = postgresDb(withDatabase(postgresAdminUrl(), name), 1);
    await migrateAll(db);
    await db.close();
    project.provide('postgresTemplate', name);
    project.provide('pgliteTemplate', '');
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.close();
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'portal-tmpl-'));
  const pg = await PGlite.create({ extensions: await pgliteExtensions() });
  await migrateAll(pgliteDb(pg));
  const dump = await pg.dumpDataDir('none');
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pg.close();
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplate', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
