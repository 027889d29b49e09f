import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import type { Db } from '../db.js';
import { readAll, type BlobStore } from '../storage.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupRefused,
  backupKey,
  digest,
  entryKind,
  hashingTap,
  readEntries,
  sameSignature,
  sign,
  type BackupHeader,
  type Manifest,
  type ManifestEntry,
} from './archive.js';

const gunzip = promisify(gunzipCallback);
/** No header, manifest or table piece of a real backup comes near this; a bigger one is not read into memory. */
const ENTRY_IN_MEMORY_LIMIT = 64 * 1024 * 1024;

export interface RestoreOptions {
  db: Db;
  store: BlobStore;
  /** This site's region: a backup of another region's site is refused (its data stays in its region). */
  region: string;
  siteSecret: string;
  from: string;
  /** Every migration this version of the portal knows, in order. */
  knownMigrations: string[];
  /** Applies the given migrations (the backup's schema), or all this version has when none are given. */
  migrate: (only?: string[]) => Promise<void>;
  /** Restore the database only and keep the store as it is (a store that survived, with a newer erasure ledger). */
  databaseOnly?: boolean;
}

export interface RestoreSummary {
  header: BackupHeader;
  rows: number;
  files: number;
  bytes: number;
}

const INCOMPLETE = 'The archive is incomplete (cut short before its manifest). Nothing was restored.';

async function inMemory(body: Readable, size: number, name: string) {
  if (size > ENTRY_IN_MEMORY_LIMIT)
    throw new BackupRefused(`The archive's entry ${name} is too large to be a backup's.`);
  return readAll(body);
}

function checkHeader(header: BackupHeader, opts: RestoreOptions) {
  if (header?.format !== BACKUP_FORMAT) throw new BackupRefused('The archive is not a backup of this portal.');
  if (!(header.formatVersion <= BACKUP_FORMAT_VERSION))
    throw new BackupRefused(
      `The backup was made by a newer version of the portal (format ${header.formatVersion}): restore it with that version or a later one.`,
    );
  const known = new Set(opts.knownMigrations);
  const unknown = header.migrations.find((m) => !known.has(m));
  if (unknown)
    throw new BackupRefused(
      `The backup's schema is newer than this version of the portal (its migration ${unknown} is not one this version has): restore it with the version that made it, or a later one.`,
    );
  if (header.region !== opts.region)
    throw new BackupRefused(
      `The backup is of a site in region ${header.region}; this site is in region ${opts.region}. A site's data stays in its region: restore it into a site of region ${header.region}.`,
    );
}

/**
 * Reads the whole archive once, before anything is written: every entry is one a backup holds, the header fits this
 * site, and every entry's size and SHA-256 match the manifest, whose signature is this site's.
 */
export async function verifyArchive(opts: RestoreOptions): Promise<{ header: BackupHeader; manifest: Manifest }> {
  let header: BackupHeader | undefined;
  let manifestBody: Buffer | undefined;
  let signature: string | undefined;
  const seen: ManifestEntry[] = [];
  try {
    for await (const entry of readEntries(opts.from)) {
      if (signature !== undefined) throw new BackupRefused(`The archive holds ${entry.name} after its signature.`);
      if (entry.type !== 'file')
        throw new BackupRefused(`The archive holds a ${entry.type} (${entry.name}); a backup holds files only.`);
      const kind = entryKind(entry.name);
      if (!kind) throw new BackupRefused(`The archive holds an entry outside a backup's folders: ${entry.name}`);
      if (!header && kind.kind !== 'header') throw new BackupRefused('The archive does not begin with backup.json.');
      if (kind.kind === 'manifest') {
        manifestBody = await inMemory(entry.body, entry.size, entry.name);
        continue;
      }
      if (kind.kind === 'signature') {
        if (!manifestBody) throw new BackupRefused('The archive has a signature but no manifest before it.');
        signature = (await inMemory(entry.body, entry.size, entry.name)).toString('utf8').trim();
        continue;
      }
      if (manifestBody) throw new BackupRefused(`The archive holds ${entry.name} after its manifest.`);
      if (kind.kind === 'header') {
        if (header) throw new BackupRefused('The archive holds backup.json twice.');
        const body = await inMemory(entry.body, entry.size, entry.name);
        try {
          header = JSON.parse(body.toString('utf8')) as BackupHeader;
        } catch {
          throw new BackupRefused('The archive is not a backup of this portal (its backup.json is not JSON).');
        }
        checkHeader(header, opts);
        seen.push({ name: entry.name, size: body.length, sha256: createHash('sha256').update(body).digest('hex') });
        continue;
      }
      if (kind.kind === 'table' && !header!.tables.some((t) => t.name === kind.table))
        throw new BackupRefused(`The archive holds rows of ${kind.table}, a table its header does not list.`);
      seen.push({ name: entry.name, ...(await digest(entry.body)) });
    }
  } catch (err) {
    if (err instanceof BackupRefused) throw err;
    // The tar reader's own complaints (a header cut in two, a body shorter than its size) mean the same.
    throw new BackupRefused(INCOMPLETE);
  }
  if (!header || !manifestBody || signature === undefined) throw new BackupRefused(INCOMPLETE);
  if (!sameSignature(sign(backupKey(opts.siteSecret), manifestBody), signature))
    throw new BackupRefused(
      "The archive's signature does not match: it was changed after the backup, or made by a site with another secret (JWT_SECRET, or secrets.json in DATA_DIR). Nothing was restored.",
    );
  const manifest = JSON.parse(manifestBody.toString('utf8')) as Manifest;
  const listed = manifest.entries ?? [];
  const differs = seen.find(
    (e, i) => listed[i]?.name !== e.name || listed[i]?.size !== e.size || listed[i]?.sha256 !== e.sha256,
  );
  if (differs || listed.length !== seen.length)
    throw new BackupRefused(
      `The archive was changed after the backup: ${differs?.name ?? 'its entries'} ${differs ? 'does' : 'do'} not match its manifest. Nothing was restored.`,
    );
  return { header, manifest };
}

/** The target is an empty site: no organization in its database, no file in its store that the backup lacks. */
async function checkTarget(opts: RestoreOptions, header: BackupHeader, manifest: Manifest) {
  const [table] = await opts.db.query<{ found: string | null }>(
    `SELECT to_regclass('public.organizations')::text AS found`,
  );
  if (table?.found) {
    const [taken] = await opts.db.query<{ taken: boolean }>('SELECT EXISTS (SELECT 1 FROM organizations) AS taken');
    if (taken?.taken)
      throw new BackupRefused(
        'The database already holds a site (it has organizations): restore into an empty database.',
      );
    const applied = await opts.db.query<{ name: string }>('SELECT name FROM schema_migrations');
    const backup = new Set(header.migrations);
    const newer = applied.find((m) => !backup.has(m.name));
    if (newer)
      throw new BackupRefused(
        `The empty database was migrated further than the backup (${newer.name}): restore into a new database.`,
      );
  }
  // Loading rows as they were needs triggers and foreign keys to stand aside (they held when the rows were written).
  try {
    await opts.db.transaction((tx) => tx.query('SET LOCAL session_replication_role = replica'));
  } catch {
    throw new BackupRefused(
      "The database role may not set session_replication_role, which a restore needs: restore as the database's superuser, or GRANT SET ON PARAMETER session_replication_role TO the role (PostgreSQL 15 or later).",
    );
  }
  if (opts.databaseOnly) return;
  const inArchive = new Set(
    manifest.entries.filter((e) => e.name.startsWith('files/')).map((e) => e.name.slice('files/'.length)),
  );
  for await (const { key } of opts.store.listAll()) {
    // A file of this very archive is one an interrupted restore wrote: written again.
    if (!inArchive.has(key))
      throw new BackupRefused(
        `The file store is not empty (it holds ${key}): restore into an empty store, or restore the database only (--database-only) to keep the store as it is.`,
      );
  }
}

/**
 * Restores a site from a backup into an empty database and store: the archive is checked whole first; then the
 * database is brought to the backup's schema, its rows loaded in one transaction (the files written meanwhile, and
 * removed again if the transaction does not commit), and the migrations this version has beyond the backup's applied.
 */
export async function restoreSite(opts: RestoreOptions): Promise<RestoreSummary> {
  const { header, manifest } = await verifyArchive(opts);
  await checkTarget(opts, header, manifest);
  await opts.migrate(header.migrations);

  const columns = new Map(header.tables.map((t) => [t.name, t.columns]));
  const expected = manifest.entries;
  const written: string[] = [];
  const summary: RestoreSummary = { header, rows: 0, files: 0, bytes: 0 };
  const mismatch = (name: string) =>
    new BackupRefused(`The archive changed while it was restored (${name}). Nothing was restored.`);
  try {
    await opts.db.copyTransaction('write', async (c) => {
      await c.query('SET LOCAL session_replication_role = replica');
      // Migrations write rows of their own (menus, roles): the backup's replace them.
      await c.query(`TRUNCATE ${header.tables.map((t) => `"${t.name}"`).join(', ')}`);
      // Indexes are built once the rows are in, as pg_restore does: a sort each instead of a million insertions.
      // Those behind a constraint (primary keys, unique codes) stay; a failure rolls the drops back with the rest.
      const deferred = await c.query<{ name: string; definition: string }>(
        `SELECT quote_ident(ic.relname) AS name, pg_get_indexdef(i.indexrelid) AS definition
           FROM pg_index i
           JOIN pg_class ic ON ic.oid = i.indexrelid
           JOIN pg_class t ON t.oid = i.indrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = 'public' AND t.relkind = 'r'
            AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
      );
      for (const index of deferred) await c.query(`DROP INDEX ${index.name}`);
      // The server's memory, not this process's: on the embedded database that would be this process's.
      if (opts.db.kind === 'postgres') await c.query(`SET LOCAL maintenance_work_mem = '256MB'`);
      let index = 0;
      for await (const entry of readEntries(opts.from)) {
        const kind = entryKind(entry.name);
        if (!kind || kind.kind === 'manifest' || kind.kind === 'signature') continue;
        const listed = expected[index++];
        if (listed?.name !== entry.name) throw mismatch(entry.name);
        if (kind.kind === 'header') continue;
        if (kind.kind === 'table') {
          const body = await inMemory(entry.body, entry.size, entry.name);
          if (createHash('sha256').update(body).digest('hex') !== listed.sha256) throw mismatch(entry.name);
          const rows = await gunzip(body);
          await c.copyIn(kind.table, columns.get(kind.table)!, rows);
          continue;
        }
        if (opts.databaseOnly) continue;
        const { tap, sha256 } = hashingTap();
        written.push(kind.key);
        entry.body.on('error', (err) => tap.destroy(err));
        await opts.store.write(kind.key, entry.body.pipe(tap));
        if (sha256() !== listed.sha256) throw mismatch(entry.name);
        summary.files++;
        summary.bytes += listed.size;
      }
      if (index !== expected.length) throw new BackupRefused(INCOMPLETE);
      for (const { definition } of deferred) await c.query(definition);
      for (const s of header.sequences)
        await c.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [`"${s.name}"`, s.lastValue, s.isCalled]);
      const [{ n }] = (await c.query<{ n: number }>(
        `SELECT (${header.tables.map((t) => `(SELECT count(*) FROM "${t.name}")`).join(' + ')})::int AS n`,
      )) as [{ n: number }];
      summary.rows = n;
    });
  } catch (err) {
    for (const key of written) await opts.store.delete(key).catch(() => undefined);
    throw err;
  }
  // The migrations this version has beyond the backup's.
  await opts.migrate();
  return summary;
}
