import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.js';
import { migrateAll, migrateOnly, migrationNames } from './migrations.js';
import { BackupRefused } from './platform/backup/archive.js';
import { backupSite } from './platform/backup/site-backup.js';
import { restoreSite } from './platform/backup/site-restore.js';
import { DataDirBusy, holdDataDir } from './platform/data-dir-lock.js';
import { openDb } from './platform/db.js';
import { openStore } from './platform/open-store.js';

/**
 * `npm run backup -- --out <file>`: the site (database and file store) into one signed archive, while it runs.
 * `npm run restore -- --from <file> [--database-only]`: a backup into an empty site, the server stopped
 * (docs/operations.md, "Backup and restore").
 */
const USAGE = 'usage: backup --out <file> | restore --from <file> [--database-only]';

/**
 * The tables' owner when the portal runs as a role of its own; the embedded database in DATA_DIR otherwise, which
 * only a stopped server leaves to another process.
 */
async function openSiteDatabase(config: Config, what: string) {
  const url = config.migrationDatabaseUrl ?? config.databaseUrl;
  if (url) return openDb({ databaseUrl: url });
  const release = holdDataDir(config.dataDir, what);
  const db = await openDb({ pgliteDir: join(config.dataDir, 'pglite') });
  const close = db.close.bind(db);
  db.close = async () => {
    await close();
    release();
  };
  return db;
}

async function run() {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: { out: { type: 'string' }, from: { type: 'string' }, 'database-only': { type: 'boolean' } },
  });
  const config = loadConfig();
  const store = await openStore(config.storage);
  if (command === 'backup' && values.out) {
    const db = await openSiteDatabase(config, 'backing it up');
    try {
      const started = Date.now();
      const manifest = await backupSite({
        db,
        store,
        region: config.region,
        siteSecret: config.jwtSecret,
        out: resolve(values.out),
      });
      const rows = Object.values(manifest.rows).reduce((a, b) => a + b, 0);
      console.log(
        `Backup written to ${resolve(values.out)}: ${rows} rows, ${manifest.files.count} files (${manifest.files.bytes} bytes) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
      if (manifest.files.goneDuringBackup.length)
        console.log(`Deleted while the backup ran, so not in it: ${manifest.files.goneDuringBackup.join(', ')}`);
    } finally {
      await db.close();
    }
    return;
  }
  if (command === 'restore' && values.from) {
    const db = await openSiteDatabase(config, 'restoring into it');
    try {
      const summary = await restoreSite({
        db,
        store,
        region: config.region,
        siteSecret: config.jwtSecret,
        from: resolve(values.from),
        knownMigrations: migrationNames(),
        migrate: async (only) => void (await (only ? migrateOnly(db, only) : migrateAll(db))),
        databaseOnly: values['database-only'],
      });
      console.log(
        `Restored the backup of ${summary.header.createdAt}: ${summary.rows} rows, ${summary.files} files (${summary.bytes} bytes)${values['database-only'] ? '; the file store was kept as it was' : ''}. Erasures in the store's ledger are applied again when the server starts.`,
      );
    } finally {
      await db.close();
    }
    return;
  }
  console.error(USAGE);
  process.exit(2);
}

run().catch((err: Error) => {
  console.error(
    err instanceof BackupRefused || err instanceof ConfigError || err instanceof DataDirBusy ? err.message : err.stack,
  );
  process.exit(1);
});
