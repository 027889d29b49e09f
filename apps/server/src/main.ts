import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDb, type Db } from './platform/db.js';
import { DataDirBusy, holdDataDir } from './platform/data-dir-lock.js';
import { migrateAll } from './migrations.js';
import { buildApp } from './app.js';
import { DEMO_ACCOUNTS, isEmpty, seedDemo } from './seed.js';

export async function openDatabase(config: Config): Promise<Db> {
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  if (config.migrationDatabaseUrl) {
    // The tables' owner migrates; the portal then connects as its own role, which has only the rights it was given.
    const owner = await openDb({ databaseUrl: config.migrationDatabaseUrl });
    try {
      await migrateAll(owner);
    } finally {
      await owner.close();
    }
  }
  const db = await openDb({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite'),
    pooler: config.databasePooler,
    listenUrl: config.listenDatabaseUrl,
  });
  if (!config.migrationDatabaseUrl) await migrateAll(db);
  return db;
}

/** Starts the portal: config, database, migrations, demo seed, listen (also called by `npm start`'s script). */
export async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  let releaseDataDir = () => {};
  try {
    if (!config.databaseUrl) releaseDataDir = holdDataDir(config.dataDir, 'starting the server on it');
  } catch (err) {
    if (!(err instanceof DataDirBusy)) throw err;
    console.error(err.message);
    process.exit(1);
  }
  const db = await openDatabase(config);
  const fresh = await isEmpty(db);
  if (fresh && config.seedDemo) await seedDemo(db, config.demoPassword, config.region);

  const app = await buildApp({ config, db });
  // Before the first answer: a database restored from a backup older than an erasure must not show the patient.
  await app.housekeeping.run('erasureReplay');
  await app.listen({ port: config.port, host: config.host });
  // Metrics on a port of their own (closed with the app); on the main port they are a route (docs/operations.md).
  const metricsPort = config.metrics?.port;
  if (app.metrics && metricsPort !== undefined) {
    const bound = await app.metrics.listen(metricsPort, config.metrics!.host, config.metrics!.token);
    app.log.info({ address: bound.address, port: bound.port }, 'metrics listening');
  }
  if (fresh && config.seedDemo) {
    // In the background: the portal is usable at once, the demo scans arrive a few seconds later.
    // Loaded only here: the scanner client is not needed by a portal that already has its data.
    void import('./demo-scans.js')
      .then(({ seedDemoScans }) =>
        seedDemoScans(db, `http://127.0.0.1:${config.port}`, config.dataDir, (msg) => app.log.info(msg)),
      )
      .catch((err: unknown) => app.log.warn({ err }, 'demo scans failed'));
  }

  app.platform.jobs.start();
  app.webhooks.jobs.start();
  app.housekeeping.start();

  const where = config.databaseUrl
    ? 'PostgreSQL (DATABASE_URL)'
    : `embedded database in ${join(config.dataDir, 'pglite')}`;
  const lines = [`\n  Dental Portal is running at ${config.publicUrl}  (${where})`];
  if (config.seedDemo) {
    lines.push(`  Demo accounts (password ${config.demoPassword}):`);
    for (const d of DEMO_ACCOUNTS) lines.push(`    ${d.account.padEnd(8)} ${d.label}`);
    lines.push(`  Mails are kept in the outbox; open ${config.publicUrl}/mailbox to read them.`);
  } else if (fresh) {
    lines.push('  No accounts yet: run `npm run admin:create` to create the first super administrator.');
  }
  if (config.metrics)
    lines.push(
      metricsPort !== undefined
        ? `  Metrics: http://${config.metrics.host.includes(':') ? `[${config.metrics.host}]` : config.metrics.host}:${metricsPort}/metrics${config.metrics.token ? ' (bearer token)' : ''}`
        : `  Metrics: ${config.publicUrl}/metrics (bearer token)`,
    );
  console.log(`${lines.join('\n')}\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Requests in flight get a grace period; then their connections are cut (an upload resumes where it stopped), so
    // a stalled client cannot hold the exit. Running jobs are awaited for as long again, then left to their lease.
    const graceMs = config.shutdownGraceSeconds * 1000;
    const cut = setTimeout(() => {
      app.log.warn({ graceSeconds: config.shutdownGraceSeconds }, 'cutting connections still open at shutdown');
      app.server.closeAllConnections();
    }, graceMs);
    const abandon = setTimeout(() => {
      app.log.warn('shutdown did not finish in time: exiting with work unfinished');
      process.exit(1);
    }, 2 * graceMs);
    cut.unref();
    abandon.unref();
    await app.close();
    await db.close();
    releaseDataDir();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

if (process.argv[1] && /main\.(ts|js)$/.test(process.argv[1])) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
