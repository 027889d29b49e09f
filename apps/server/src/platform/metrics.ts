import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from './db.js';
import { bearerMatches } from './crypto.js';
import { MAX_ATTEMPTS as MAIL_MAX_ATTEMPTS } from './mail.js';
import type { App } from './services.js';

/** Methods kept as they are in the method label; any other is 'other' (a label's values stay few). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Request durations, in seconds: API calls take milliseconds, uploads and exports take longer. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];
/** One snapshot of the database's figures serves every gauge of a scrape. */
const SNAPSHOT_REUSE_MS = 500;

export interface MetricsSources {
  db: Db;
  /** The live hub's sockets of this process. */
  liveCounts: () => { open: number; members: number };
  log: FastifyBaseLogger;
}

interface DbSnapshot {
  queued: number;
  running: number;
  oldestQueuedSeconds: number;
  mailUnsent: number;
  mailGivenUp: number;
  oldestMailSeconds: number;
}

/**
 * Prometheus metrics of one server process (docs/operations.md, "Metrics"): request rate and latency per route
 * pattern, upload bytes, live sockets, and gauges read when Prometheus scrapes (job queue, mail outbox, database
 * pool). Labels carry route patterns, methods and status classes only: never a URL, a code or an id.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status_class'>;
  private readonly uploadBytes: Counter;
  private snapshot?: { at: number; value: Promise<DbSnapshot | null> };
  private server?: Server;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status class (2xx, 4xx, ...), with their duration',
      labelNames: ['method', 'route', 'status_class'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.uploadBytes = new Counter({
      name: 'portal_upload_bytes_received_total',
      help: 'Bytes of resumable (tus) uploads received and stored',
      registers,
    });
    const live = (name: string, help: string, pick: (c: { open: number; members: number }) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(pick(sources.liveCounts()));
        },
      });
    live('portal_live_sockets', 'Live sockets open in this process', (c) => c.open);
    live('portal_live_sockets_authenticated', 'Live sockets open in this process that are signed in', (c) => c.members);

    const fromDb = (name: string, help: string, pick: (s: DbSnapshot) => number) => {
      const read = () => this.readDb();
      return new Gauge({
        name,
        help,
        registers,
        async collect() {
          const s = await read();
          // A database that does not answer leaves the gauge out of the scrape rather than failing it.
          if (s) this.set(pick(s));
          else this.reset();
        },
      });
    };
    fromDb('portal_job_queue_depth', 'Background jobs waiting to run (all processes)', (s) => s.queued);
    fromDb('portal_job_running', 'Background jobs running (all processes)', (s) => s.running);
    fromDb(
      'portal_job_queue_oldest_age_seconds',
      'How long the oldest job ready to run has waited (0 when none waits)',
      (s) => s.oldestQueuedSeconds,
    );
    fromDb('portal_mail_outbox_unsent', 'Mails waiting for delivery or a retry', (s) => s.mailUnsent);
    fromDb('portal_mail_outbox_given_up', 'Mails no longer retried: every attempt failed', (s) => s.mailGivenUp);
    fromDb(
      'portal_mail_outbox_oldest_age_seconds',
      'Age of the oldest mail still waiting for delivery or a retry (0 when none waits)',
      (s) => s.oldestMailSeconds,
    );

    const pool = sources.db.poolStats?.bind(sources.db);
    if (pool) {
      const poolGauge = (name: string, help: string, pick: (p: ReturnType<NonNullable<Db['poolStats']>>) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(pick(pool()));
          },
        });
      poolGauge('portal_db_pool_connections', 'Database connections open in the pool', (p) => p.total);
      poolGauge('portal_db_pool_idle', 'Database connections open and idle', (p) => p.idle);
      poolGauge('portal_db_pool_waiting', 'Queries waiting for a database connection', (p) => p.waiting);
      poolGauge('portal_db_pool_max', 'The most connections the pool opens', (p) => p.max);
    }
  }

  /** Times every request by its route's pattern (unknown addresses are one 'unmatched' route). */
  instrument(app: App) {
    app.addHook('onResponse', (request, reply, done) => {
      const method = METHODS.has(request.method) ? request.method : 'other';
      const route = request.routeOptions.url ?? 'unmatched';
      const status_class = `${Math.floor(reply.statusCode / 100)}xx`;
      this.requests.observe({ method, route, status_class }, reply.elapsedTime / 1000);
      done();
    });
  }

  /** Counts bytes an upload store took (tus). */
  uploadReceived(bytes: number) {
    if (bytes > 0) this.uploadBytes.inc(bytes);
  }

  /** The exposition text. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** Serves /metrics on a port of its own (METRICS_PORT), with the bearer token when one is set. */
  async listen(port: number, host: string, token?: string): Promise<AddressInfo> {
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== '/metrics') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n');
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end();
      if (token !== undefined && !bearerMatches(req.headers.authorization, token))
        return void res
          .writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"', 'content-type': 'text/plain' })
          .end('Unauthorized\n');
      this.exposition().then(
        ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
        (err: unknown) => {
          this.sources.log.error({ err }, 'metrics could not be collected');
          res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected\n');
        },
      );
    });
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(port, host, () => {
        server.off('error', fail);
        ok();
      });
    });
    this.server = server;
    return server.address() as AddressInfo;
  }

  async close() {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((r) => server.close(r));
  }

  /** The job queue and the mail outbox, read once per scrape with cheap queries on their partial indexes. */
  private readDb(): Promise<DbSnapshot | null> {
    if (this.snapshot && Date.now() - this.snapshot.at < SNAPSHOT_REUSE_MS) return this.snapshot.value;
    const value = this.queryDb().catch((err: unknown) => {
      this.sources.log.warn({ err }, 'metrics: the database figures could not be read');
      return null;
    });
    this.snapshot = { at: Date.now(), value };
    return value;
  }

  private async queryDb(): Promise<DbSnapshot> {
    const { db } = this.sources;
    // Each count on its own partial index (jobs_ready_idx, jobs_running_idx): the done jobs are never read.
    const [jobs] = await db.query<{ queued: number; running: number; oldest: number }>(
      `SELECT q.queued, q.oldest, (SELECT count(*)::int FROM jobs WHERE status = 'running') AS running
         FROM (SELECT count(*)::int AS queued,
                      COALESCE(EXTRACT(EPOCH FROM now() - min(run_after) FILTER (WHERE run_after <= now())), 0)::float8
                        AS oldest
                 FROM jobs WHERE status = 'queued') q`,
    );
    const [mail] = await db.query<{ unsent: number; given_up: number; oldest: number }>(
      `SELECT count(*) FILTER (WHERE attempts < $1)::int AS unsent,
              count(*) FILTER (WHERE attempts >= $1)::int AS given_up,
              COALESCE(EXTRACT(EPOCH FROM now() - min(created_at) FILTER (WHERE attempts < $1)), 0)::float8 AS oldest
         FROM mail_outbox WHERE status IN ('pending', 'failed')`,
      [MAIL_MAX_ATTEMPTS],
    );
    return {
      queued: Number(jobs?.queued ?? 0),
      running: Number(jobs?.running ?? 0),
      oldestQueuedSeconds: Math.max(0, Number(jobs?.oldest ?? 0)),
      mailUnsent: Number(mail?.unsent ?? 0),
      mailGivenUp: Number(mail?.given_up ?? 0),
      oldestMailSeconds: Math.max(0, Number(mail?.oldest ?? 0)),
    };
  }
}
