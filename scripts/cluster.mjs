// `npm run cluster`: a site of two portal processes behind HAProxy on loopback, on PostgreSQL and an S3-compatible store
// (docs/operations.md, "Several processes behind a balancer"). Builds what changed first; Ctrl+C stops everything.
import { build } from './build.mjs';
import { startCluster } from './cluster-lib.mjs';

const port = Number(process.env.CLUSTER_PORT ?? 8080);
build();
let cluster;
try {
  cluster = await startCluster({
    port,
    // CLUSTER_DATABASE: the database the site gets (made afresh; default portal_cluster).
    ...(process.env.CLUSTER_DATABASE ? { database: process.env.CLUSTER_DATABASE } : {}),
    // CLUSTER_POSTGRES=throwaway: a PostgreSQL of the cluster's own even where one answers.
    throwawayPostgres: process.env.CLUSTER_POSTGRES === 'throwaway',
    // CLUSTER_PGBOUNCER=1: the processes reach PostgreSQL through PgBouncer in transaction mode.
    pgbouncer: process.env.CLUSTER_PGBOUNCER === '1',
    onOutput: (name, text) => {
      for (const line of text.split('\n').filter((l) => l.trim())) console.log(`[${name}] ${line}`);
    },
  });
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
console.log(`
  The site is running at ${cluster.url}
  HAProxy in front of ${cluster.processes.map((p) => `${p.name} (${p.url})`).join(' and ')}
  Database ${cluster.databaseUrl.replace(/\/\/[^@/]*@/, '//')}, files in s3rver. Ctrl+C stops it all.
`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\n  Stopping the cluster…');
  await cluster.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
