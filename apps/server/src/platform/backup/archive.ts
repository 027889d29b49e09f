import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import tar from 'tar-stream';
import { isStoreKey } from '../storage.js';

/**
 * A site's backup is one tar file (docs/operations.md, "Backup and restore"):
 *
 *   backup.json                    what it is: format, schema (the migrations applied), region, tables, sequences
 *   db/<table>/<n>.copy.gz         the table's rows in PostgreSQL's COPY text format, gzipped, in pieces of whole rows
 *   files/<key>                    each file of the store, as stored
 *   manifest.json                  every entry above with its size and SHA-256, in order
 *   manifest.sig                   HMAC-SHA-256 of manifest.json under a key derived from the site's secret
 *
 * A restore reads it through once to check all of it before it writes anything.
 */
export const BACKUP_FORMAT = 'dental-portal-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const HEADER_ENTRY = 'backup.json';
export const MANIFEST_ENTRY = 'manifest.json';
export const SIGNATURE_ENTRY = 'manifest.sig';

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  region: string;
  /** Which database it was taken from (a backup restores into either). */
  database: 'pglite' | 'postgres';
  /** Every migration the database had applied, in order: its schema. */
  migrations: string[];
  tables: { name: string; columns: string[] }[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
}
export interface ManifestEntry {
  name: string;
  size: number;
  sha256: string;
}
export interface Manifest {
  entries: ManifestEntry[];
  files: { count: number; bytes: number; goneDuringBackup: string[] };
  rows: Record<string, number>;
}

/** Why an archive is not restored; the message says what to do. Nothing was written when it is thrown. */
export class BackupRefused extends Error {}

/** The key backups are signed with: derived from the site's secret, so a restoring site needs the same secret. */
export function backupKey(siteSecret: string): Buffer {
  return createHmac('sha256', siteSecret).update('portal:backups').digest();
}
export const sign = (key: Buffer, manifest: Buffer) => createHmac('sha256', key).update(manifest).digest('hex');

const TABLE = /^[a-z_][a-z0-9_]{0,62}$/;
export const tableEntry = (table: string, piece: number) => `db/${table}/${String(piece).padStart(6, '0')}.copy.gz`;
const TABLE_ENTRY = /^db\/([a-z_][a-z0-9_]{0,62})\/\d{6}\.copy\.gz$/;
export const fileEntry = (key: string) => `files/${key}`;

/** What an entry's name says it holds; anything else (a `../`, an absolute path, an unknown folder) is refused. */
export type EntryKind =
  | { kind: 'header' }
  | { kind: 'manifest' }
  | { kind: 'signature' }
  | { kind: 'table'; table: string }
  | { kind: 'file'; key: string };
export function entryKind(name: string): EntryKind | null {
  if (name === HEADER_ENTRY) return { kind: 'header' };
  if (name === MANIFEST_ENTRY) return { kind: 'manifest' };
  if (name === SIGNATURE_ENTRY) return { kind: 'signature' };
  const table = TABLE_ENTRY.exec(name);
  if (table) return { kind: 'table', table: table[1]! };
  if (name.startsWith('files/') && isStoreKey(name.slice('files/'.length)))
    return { kind: 'file', key: name.slice('files/'.length) };
  return null;
}

export function checkTableName(name: string) {
  if (!TABLE.test(name)) throw new Error(`a table the backup cannot name: ${name}`);
}

/** The archive's entries one by one, each a stream to read whole before the next; a cut-short archive throws. */
export async function* readEntries(
  path: string,
): AsyncGenerator<{ name: string; type: string; size: number; body: Readable }> {
  const extract = tar.extract();
  const source = createReadStream(path);
  source.on('error', (err) => extract.destroy(err));
  source.pipe(extract);
  try {
    for await (const entry of extract) {
      const { name, type, size } = entry.header;
      yield { name, type: type ?? 'file', size: size ?? 0, body: entry as unknown as Readable };
      // What the caller did not read is skipped, so the next header is found.
      entry.resume();
    }
  } finally {
    source.destroy();
  }
}

/** Reads a stream through, handing each chunk on and answering its size and SHA-256. */
export async function digest(body: Readable, each?: (chunk: Buffer) => void | Promise<void>) {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
    if (each) await each(chunk);
  }
  return { size, sha256: hash.digest('hex') };
}

export function sameSignature(expected: string, actual: string) {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(actual, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A pass-through that hashes what goes through it (a file on its way into or out of an archive). */
export function hashingTap() {
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { tap, sha256: () => hash.digest('hex') };
}
