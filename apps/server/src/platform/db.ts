import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { MIGRATIONS_DIR } from './paths.js';
import { ScopedStorage } from './scoped-storage.js';

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
  /** Calls `fn` for each notification on `channel` (LISTEN); resolves to an unsubscribe function. */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** The connection pool's use (PostgreSQL only; the embedded database has its one connection): for the metrics. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /**
   * One connection in one transaction that may COPY whole tables (backup and restore): `snapshot` reads one
   * consistent view (REPEATABLE READ, read only), `write` loads. Committed when `fn` resolves, rolled back otherwise.
   */
  copyTransaction<T>(mode: 'snapshot' | 'write', fn: (c: CopyConnection) => Promise<T>): Promise<T>;
}

/** A table's rows in PostgreSQL's COPY text format: one row per line, so pieces split at line ends stay whole. */
export interface CopyConnection extends Queryable {
  /** Copies a table's columns out, handing them on in pieces of whole rows of about `COPY_PIECE_BYTES`. */
  copyOut(table: string, columns: string[], onPiece: (rows: Buffer) => Promise<void>): Promise<void>;
  /** Copies rows (whole lines) into a table's columns. */
  copyIn(table: string, columns: string[], rows: Buffer): Promise<void>;
}

export const COPY_PIECE_BYTES = 8 * 1024 * 1024;
const SIMPLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** A table or column name for COPY: the schema's own names only, quoted. */
function quoted(name: string) {
  if (!SIMPLE_NAME.test(name)) throw new Error(`not a plain SQL name: ${name}`);
  return `"${name}"`;
}
const copyTarget = (table: string, columns: string[]) => `${quoted(table)} (${columns.map(quoted).join(', ')})`;
const copySelect = (table: string, columns: string[]) =>
  `SELECT ${columns.map(quoted).join(', ')} FROM ${quoted(table)}`;

/**
 * The transaction the current call runs in, if any. A query on the database itself (not on `tx`) from inside a
 * transaction escapes it, and on the single-connection PGlite waits forever for the transaction that waits for it:
 * both are refused at once with an error that says what to do. Another Db (a second pool) is another connection. Work a transaction starts and leaves running
 * (a mail sent after it) inherits the context, so the flag is cleared when the transaction ends.
 */
const openTransaction = new ScopedStorage<{ db: Db; open: boolean }>();

function assertOutsideTransaction(db: Db) {
  const current = openTransaction.getStore();
  if (current?.open && current.db === db)
    throw new Error('A query on the database inside a transaction: pass the transaction (tx) to the repository');
}

async function inTransaction<T>(db: Db, run: () => Promise<T>): Promise<T> {
  const state = { db, open: true };
  try {
    return await openTransaction.run(state, run);
  } finally {
    state.open = false;
  }
}

export function pgliteDb(client: PGlite): Db {
  const db: Db = {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      assertOutsideTransaction(db);
      return (await client.query<T>(sql, params)).rows;
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      assertOutsideTransaction(db);
      return client.transaction((tx) =>
        inTransaction(db, () =>
          fn({ query: async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows }),
        ),
      );
    },
    async listen(channel, fn) {
      return client.listen(channel, fn);
    },
    copyTransaction<T>(mode: 'snapshot' | 'write', fn: (c: CopyConnection) => Promise<T>) {
      assertOutsideTransaction(db);
      // The transaction holds the one connection: the server's other queries wait for it, never run inside it.
      return client.transaction(async (tx) => {
        if (mode === 'snapshot') await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        const rows = async <R>(sql: string, params: unknown[] = []) => (await tx.query<R>(sql, params)).rows;
        const connection: CopyConnection = {
          query: rows,
          // The embedded database hands a COPY's output over whole: a table is read in ranges of its pages instead.
          async copyOut(table, columns, onPiece) {
            const [size] = await rows<{ pages: number }>(
              `SELECT (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int AS pages`,
              [quoted(table)],
            );
            const step = Math.max(1, Math.floor(COPY_PIECE_BYTES / 8192));
            for (let page = 0; ; page += step) {
              // The last range is open-ended: it holds whatever lies past the size read above.
              const last = page >= (size?.pages ?? 0);
              const range = last
                ? `ctid >= '(${page},0)'::tid`
                : `ctid >= '(${page},0)'::tid AND ctid < '(${page + step},0)'::tid`;
              const result = await tx.query(`COPY (${copySelect(table, columns)} WHERE ${range}) TO '/dev/blob'`);
              const piece = Buffer.from(await (result.blob ?? new Blob()).arrayBuffer());
              if (piece.length) await onPiece(piece);
              if (last) return;
            }
          },
          async copyIn(table, columns, data) {
            await tx.query(`COPY ${copyTarget(table, columns)} FROM '/dev/blob'`, [], {
              blob: new Blob([data as Uint8Array<ArrayBuffer>]),
            });
          },
        };
        return inTransaction(db, () => fn(connection));
      });
    },
    close: () => client.close(),
  };
  return db;
}

/**
 * A page and its total in one statement: one round trip, one snapshot. `counted` is the `FROM … WHERE` the total
 * counts; `page` is the page's whole SELECT, which must select a non-null `id`. A page past the end still tells the
 * total, beside a row of nulls that `pageOf` drops (`count(*) OVER ()` would have said 0 there, and a pager sent
 * back from an emptied last page would have found nothing to go back to).
 */
export const sqlPageAndTotal = (counted: string, page: string) =>
  `SELECT t.total, p.*
     FROM (SELECT count(*)::int AS total ${counted}) t
     LEFT JOIN LATERAL (${page}) p ON true`;

/** The rows of a `sqlPageAndTotal` statement: the total and the page's rows. */
export function pageOf<T extends { id: unknown }>(rows: (T & { total: number })[]): { total: number; rows: T[] } {
  return { total: rows[0]?.total ?? 0, rows: rows.filter((r) => r.id !== null) };
}

/**
 * The instant a calendar day (`dayParam`, 'YYYY-MM-DD') starts in a timezone (`zoneParam`, an IANA name): the
 * bounds of a day filter. Lists show times in the reader's timezone, so their day filters start and end at the
 * reader's midnight; read in the database's own zone, a scan at 01:30 in Tokyo fell on the day before.
 */
export const sqlDayStart = (dayParam: string, zoneParam: string) =>
  `((${dayParam})::date)::timestamp AT TIME ZONE ${zoneParam}`;

/**
 * An instant as SQL text in the API's format, JavaScript's `toISOString()` ('2026-11-24T21:47:45.123Z', the
 * milliseconds cut as the driver's Date cuts them). Lists ask for their times this way: PostgreSQL writes them
 * in C, where the driver would parse each into a Date and the server format it again (a tenth of a list's CPU).
 */
export const sqlIsoTime = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An instant the driver gave as a Date, or a list gave as `sqlIsoTime` text, in the API's format. */
export const isoText = (t: Date | string) => (typeof t === 'string' ? t : t.toISOString());

/**
 * Single data statements run as named prepared statements, so PostgreSQL parses and plans each
 * repository query once per connection. The SQL is static text, so the set of names stays small.
 */
const PREPARABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;
const statementNames = new Map<string, string>();
function prepared(sql: string, values: unknown[]): pg.QueryConfig {
  if (!PREPARABLE.test(sql)) return { text: sql, values };
  let name = statementNames.get(sql);
  if (!name) {
    name = `s${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`;
    statementNames.set(sql, name);
  }
  return { name, text: sql, values };
}

/**
 * How the portal reaches PostgreSQL: directly, or through a pooler in transaction mode (PgBouncer's
 * `pool_mode = transaction`), where a connection is the portal's only for one transaction: then no statement is
 * prepared by name and no session setting is made (either would meet another client's connection), and LISTEN goes
 * over `listenUrl`, a direct connection (docs/operations.md, "Behind PgBouncer").
 */
export interface PostgresOptions {
  max?: number;
  pooler?: 'none' | 'transaction';
  /** The direct address for LISTEN (default: the connection string itself). */
  listenUrl?: string;
}

export function postgresDb(connectionString: string, maxOrOptions: number | PostgresOptions = 20): Db {
  const options = typeof maxOrOptions === 'number' ? { max: maxOrOptions } : maxOrOptions;
  const max = options.max ?? 20;
  const pooled = options.pooler === 'transaction';
  const statement = pooled ? (text: string, values: unknown[]): pg.QueryConfig => ({ text, values }) : prepared;
  const pool = new pg.Pool({
    connectionString,
    max,
    // Plan each prepared statement once per connection. Left to choose, PostgreSQL re-plans the list queries on
    // every call: their generic plan looks costlier (a date range or LIMIT of unknown width), yet it is the same
    // index scan, and planning a three-table join cost more than running it (case list: 0.32 → 0.15 ms of
    // database CPU). Every statement here is scoped by organization on an index that leads with it, so one plan
    // fits all values. The pool awaits this before handing the connection out.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg awaits it (typed as void)
    onConnect: async (client) => {
      if (!pooled) await client.query('SET plan_cache_mode = force_generic_plan');
    },
  });
  // An idle connection the server ends (restart, failover, an administrator) must not crash the process:
  // the pool drops it and opens another; a query in flight reports its own error.
  pool.on('error', () => undefined);
  const listener = new Listener(options.listenUrl ?? connectionString);
  /** A transaction on a connection of its own, committed when `fn` resolves, rolled back otherwise. */
  const onOneConnection = async <T>(begin: string, fn: (conn: pg.PoolClient) => Promise<T>): Promise<T> => {
    assertOutsideTransaction(db);
    const conn = await pool.connect();
    try {
      await conn.query(begin);
      const result = await inTransaction(db, () => fn(conn));
      await conn.query('COMMIT');
      return result;
    } catch (err) {
      await conn.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      conn.release();
    }
  };
  const db: Db = {
    kind: 'postgres',
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    async query<T>(sql: string, params: unknown[] = []) {
      assertOutsideTransaction(db);
      return (await pool.query(statement(sql, params))).rows as T[];
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return onOneConnection('BEGIN', (conn) =>
        fn({
          query: async <R>(sql: string, params: unknown[] = []) =>
            (await conn.query(statement(sql, params))).rows as R[],
        }),
      );
    },
    listen: (channel, fn) => listener.listen(channel, fn),
    copyTransaction<T>(mode: 'snapshot' | 'write', fn: (c: CopyConnection) => Promise<T>) {
      const begin = mode === 'snapshot' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN';
      return onOneConnection(begin, (conn) =>
        fn({
          query: async <R>(sql: string, params: unknown[] = []) => (await conn.query(sql, params)).rows as R[],
          async copyOut(table, columns, onPiece) {
            const stream = conn.query(copyTo(`COPY (${copySelect(table, columns)}) TO STDOUT`));
            let held: Buffer[] = [];
            let heldBytes = 0;
            for await (const chunk of stream as AsyncIterable<Buffer>) {
              held.push(chunk);
              heldBytes += chunk.length;
              if (heldBytes < COPY_PIECE_BYTES) continue;
              const joined = Buffer.concat(held);
              const end = joined.lastIndexOf(0x0a) + 1;
              held = end < joined.length ? [joined.subarray(end)] : [];
              heldBytes = joined.length - end;
              if (end) await onPiece(joined.subarray(0, end));
            }
            if (heldBytes) await onPiece(Buffer.concat(held));
          },
          async copyIn(table, columns, data) {
            await pipeline(
              Readable.from([data]),
              conn.query(copyFrom(`COPY ${copyTarget(table, columns)} FROM STDIN`)),
            );
          },
        }),
      );
    },
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
  return db;
}

/**
 * One connection per process for every LISTEN (NOTIFY's commit cost grows with idle listeners, and a connection per
 * channel would multiply them): channels are added to it as they are listened to. It connects directly, never
 * through a pooler in transaction mode, which cannot hold a LISTEN. If it drops, every listener hears an empty
 * payload (so caches forget and readers read again what they might have missed) and it reconnects.
 */
class Listener {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();

  constructor(private readonly connectionString: string) {}

  async listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.connected();
      await this.client!.query(`LISTEN ${channel}`);
    }
    set.add(fn);
    return async () => {
      set.delete(fn);
    };
  }

  private connected(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect() {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (n) => {
      for (const fn of this.handlers.get(n.channel) ?? []) fn(n.payload ?? '');
    });
    client.on('error', () => undefined);
    client.on('end', () => {
      if (this.client === client) this.client = undefined;
      if (this.closed) return;
      for (const set of this.handlers.values()) for (const fn of set) fn('');
      setTimeout(() => void this.reconnect(), 1000).unref();
    });
    await client.connect();
    this.client = client;
  }

  private async reconnect() {
    if (this.closed) return;
    try {
      await this.connected();
      for (const channel of this.handlers.keys()) await this.client!.query(`LISTEN ${channel}`);
    } catch {
      // Not up yet: try again (an 'end' of a half-made connection schedules a try as well).
      if (this.client) this.client.end().catch(() => undefined);
      else setTimeout(() => void this.reconnect(), 1000).unref();
    }
  }

  async close() {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
  }
}

/** PGlite's bundled extensions the schema uses: pg_trgm (chat search by substring, in any script). */
export async function pgliteExtensions() {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { pg_trgm };
}

export async function openDb(
  opts: { databaseUrl?: string; pgliteDir?: string } & Pick<PostgresOptions, 'pooler' | 'listenUrl'>,
): Promise<Db> {
  if (opts.databaseUrl) return postgresDb(opts.databaseUrl, { pooler: opts.pooler, listenUrl: opts.listenUrl });
  const { PGlite } = await import('@electric-sql/pglite');
  if (opts.pgliteDir && !existsSync(opts.pgliteDir)) {
    // A new data folder is made beside its place and moved there once PostgreSQL has initialised it: a first start
    // killed half-way through leaves no half-made folder, which would never open again.
    const making = `${opts.pgliteDir}.new`;
    rmSync(making, { recursive: true, force: true });
    await (await PGlite.create({ dataDir: making, extensions: await pgliteExtensions() })).close();
    renameSync(making, opts.pgliteDir);
  }
  const extensions = await pgliteExtensions();
  const client = await PGlite.create(opts.pgliteDir ? { dataDir: opts.pgliteDir, extensions } : { extensions });
  return pgliteDb(client);
}

/** Applies the committed SQL migrations in name order, each once, each in its own transaction. */
/**
 * A migration written in code, for data SQL alone cannot make (phone numbers in E.164 need the phone library). It is
 * named `<its SQL file>:<step>` so it runs right after that file, may run in several transactions of its own, and
 * must be safe to run again: it is recorded once it has finished.
 */
export type DataMigration = (db: Db) => Promise<void>;

export async function migrate(
  db: Db,
  dataMigrations: Record<string, DataMigration> = {},
  /** Only these (a backup's schema, which a restore brings the database to before it loads the rows). */
  only?: ReadonlySet<string>,
): Promise<string[]> {
  await db.query(
    `CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const applied = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
  const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql'));
  const names = [...files, ...Object.keys(dataMigrations)].sort();
  const ran: string[] = [];
  for (const name of names) {
    if (applied.has(name) || (only && !only.has(name))) continue;
    const step = Object.hasOwn(dataMigrations, name) ? dataMigrations[name] : undefined;
    if (step) {
      await step(db);
      await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      ran.push(name);
      continue;
    }
    const sql = readFileSync(join(MIGRATIONS_DIR, name), 'utf8');
    await db.transaction(async (tx) => {
      // Statements are separated by a line holding only `--;` so functions with semicolons stay whole.
      for (const statement of sql.split(/^--;\s*$/m)) {
        if (statement.trim()) await tx.query(statement);
      }
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
    });
    ran.push(name);
  }
  return ran;
}
