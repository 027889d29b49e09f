import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import tar from 'tar-stream';
import type { CopyConnection, Db } from '../db.js';
import type { BlobStore } from '../storage.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  backupKey,
  checkTableName,
  fileEntry,
  hashingTap,
  HEADER_ENTRY,
  MANIFEST_ENTRY,
  SIGNATURE_ENTRY,
  sign,
  tableEntry,
  type BackupHeader,
  type Manifest,
  type ManifestEntry,
} from './archive.js';

const gzip = promisify(gzipCallback);
/** Rows compress about 5:1 at level 3, at a third of the time level 6 takes for a few percent more. */
const GZIP_LEVEL = 3;

export interface BackupOptions {
  db: Db;
  store: BlobStore;
  region: string;
  /** The site's secret (the token-signing secret): the archive is signed under a key derived from it. */
  siteSecret: string;
  /** Where the archive goes; written beside it as `<out>.part` and moved there once whole. */
  out: string;
}

/** The schema's relations of a kind (`r` tables, `S` sequences), by name. */
const relations = (c: CopyConnection, kind: 'r' | 'S') =>
  c.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = $1 ORDER BY c.relname`,
    [kind],
  );

/** The site's tables (partitioned parents aside: their rows are their partitions'), columns and sequences. */
async function schemaOf(c: CopyConnection) {
  const tables = await relations(c, 'r');
  const withColumns = [];
  for (const { name } of tables) {
    checkTableName(name);
    // Generated columns are computed again on the way in.
    const columns = await c.query<{ name: string }>(
      `SELECT attname AS name FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
      [`"${name}"`],
    );
    withColumns.push({ name, columns: columns.map((col) => col.name) });
  }
  const sequenceNames = await relations(c, 'S');
  const sequences = [];
  for (const { name } of sequenceNames) {
    checkTableName(name);
    // Read inside the snapshot, after it began: at least every value a row in it holds.
    const [state] = await c.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text, is_called FROM "${name}"`,
    );
    sequences.push({ name, lastValue: state!.last_value, isCalled: state!.is_called });
  }
  return { tables: withColumns, sequences };
}

const countLines = (rows: Buffer) => {
  let lines = 0;
  for (let at = rows.indexOf(0x0a); at !== -1; at = rows.indexOf(0x0a, at + 1)) lines++;
  return lines;
};

/**
 * Writes a backup of the whole site: the database as one consistent snapshot (taken while the site runs, on
 * PostgreSQL), then every file of the store. Files added after the snapshot are in it too (no row names them yet;
 * harmless); a file deleted between the listing and its reading is named in the manifest.
 */
export async function backupSite(opts: BackupOptions): Promise<Manifest> {
  const key = backupKey(opts.siteSecret);
  const part = `${opts.out}.part`;
  const pack = tar.pack();
  const written = pipeline(pack, createWriteStream(part));
  const entries: ManifestEntry[] = [];
  const mtime = new Date();

  const addBuffer = (name: string, body: Buffer, listed = true) =>
    new Promise<void>((resolve, reject) => {
      pack.entry({ name, size: body.length, mtime }, body, (err) => (err ? reject(err) : resolve()));
      if (listed) entries.push({ name, size: body.length, sha256: createHash('sha256').update(body).digest('hex') });
    });

  const rows: Record<string, number> = {};
  const files = { count: 0, bytes: 0, goneDuringBackup: [] as string[] };
  try {
    await opts.db.copyTransaction('snapshot', async (c) => {
      const migrations = await c.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      const { tables, sequences } = await schemaOf(c);
      const header: BackupHeader = {
        format: BACKUP_FORMAT,
        formatVersion: BACKUP_FORMAT_VERSION,
        createdAt: mtime.toISOString(),
        region: opts.region,
        database: opts.db.kind,
        migrations: migrations.map((m) => m.name),
        tables,
        sequences,
      };
      await addBuffer(HEADER_ENTRY, Buffer.from(JSON.stringify(header, null, 2)));
      // A piece is compressed (on the thread pool) while the next is read: one write in flight at a time.
      let writing = Promise.resolve();
      for (const table of tables) {
        let piece = 0;
        rows[table.name] = 0;
        await c.copyOut(table.name, table.columns, async (data) => {
          rows[table.name]! += countLines(data);
          const name = tableEntry(table.name, piece++);
          const compressed = gzip(data, { level: GZIP_LEVEL });
          await writing;
          writing = compressed.then((body) => addBuffer(name, body));
          // Failures surface at the next piece's await or at the end, never unhandled.
          writing.catch(() => undefined);
        });
      }
      await writing;
    });

    for await (const { key: storeKey } of opts.store.listAll()) {
      const body = await opts.store.read(storeKey).catch(() => null);
      // The store's size is read again just before: a file replaced or removed since the listing is not half-written.
      const now = body ? await opts.store.size(storeKey) : null;
      if (!body || now === null) {
        body?.destroy();
        files.goneDuringBackup.push(storeKey);
        continue;
      }
      const { tap, sha256 } = hashingTap();
      await new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name: fileEntry(storeKey), size: now, mtime }, (err) =>
          err ? reject(err) : resolve(),
        );
        pipeline(body, tap, entry).catch(reject);
      });
      entries.push({ name: fileEntry(storeKey), size: now, sha256: sha256() });
      files.count++;
      files.bytes += now;
    }

    const manifest: Manifest = { entries, files, rows };
    const manifestBody = Buffer.from(JSON.stringify(manifest));
    await addBuffer(MANIFEST_ENTRY, manifestBody, false);
    await addBuffer(SIGNATURE_ENTRY, Buffer.from(sign(key, manifestBody)), false);
    pack.finalize();
    await written;
    await rename(part, opts.out);
    return manifest;
  } catch (err) {
    pack.destroy(err as Error);
    await written.catch(() => undefined);
    await rm(part, { force: true });
    throw err;
  }
}
