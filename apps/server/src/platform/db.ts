import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { MIGRATIONS_DIR } from './paths.js';

/**
 * The one database interface the repositories use: parameterised SQL and transactions.
 * Two implementations, the embedded PGlite and node-postgres, speak the same PostgreSQL dialect.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}
export interface Db extends Queryable {
  kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function pgliteDb(client: PGlite): Db {
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await client.query<T>(sql, params)).rows;
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return client.transaction((tx) =>
        fn({ query: async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows }),
      );
    },
    close: () => client.close(),
  };
}

export function postgresDb(connectionString: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString, max });
  // Timestamps and bigints come back as text; the repositories convert what they expose.
  return {
    kind: 'postgres',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as T[];
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      const conn = await pool.connect();
      try {
        await conn.query('BEGIN');
        const result = await fn({ query: async <R>(sql: string, params: unknown[] = []) => (await conn.query(sql, params)).rows as R[] });
        await conn.query('COMMIT');
        return result;
      } catch (err) {
        await conn.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        conn.release();
      }
    },
    close: () => pool.end(),
  };
}

export async function openDb(opts: { databaseUrl?: string; pgliteDir?: string }): Promise<Db> {
  if (opts.databaseUrl) return postgresDb(opts.databaseUrl);
  const { PGlite } = await import('@electric-sql/pglite');
  const client = await PGlite.create(opts.pgliteDir ? { dataDir: opts.pgliteDir } : {});
  return pgliteDb(client);
}

/** Applies the committed SQL migrations in name order, each once, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
  const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort();
  const ran: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8');
    await db.transaction(async (tx) => {
      // Statements are separated by a line holding only `--;` so functions with semicolons stay whole.
      for (const statement of sql.split(/^--;\s*$/m)) {
        if (statement.trim()) await tx.query(statement);
      }
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    });
    ran.push(file);
  }
  return ran;
}
