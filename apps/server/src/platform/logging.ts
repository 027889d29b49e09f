import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

const LEVEL_NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
/** Fields every pino line carries, which a person at a terminal does not need to read. */
const ROUTINE_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err']);

/** One pino JSON line as a short line for a terminal: time, level (when not info), message, then any extra fields. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toTimeString().slice(0, 8);
  const level = LEVEL_NAMES[Number(entry.level)] ?? 'info';
  const extra = Object.entries(entry)
    .filter(([key]) => !ROUTINE_FIELDS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const parts = [
    time,
    level === 'info' ? '' : level.toUpperCase(),
    typeof entry.msg === 'string' ? entry.msg : JSON.stringify(entry.msg ?? ''),
    ...extra,
  ].filter(Boolean);
  return `${parts.join(' ')}${err ? `\n${err.stack ?? err.message ?? ''}` : ''}`;
}

/** A path segment that is a credential or an unguessable key: one-time signs, tus upload ids, avatar keys. */
const SECRET_SEGMENT = /^[A-Za-z0-9_-]{20,}$/;

/**
 * An address as the logs may keep it: query values and long random path segments (mailed links' signs, upload ids,
 * signed download links, an authorization request's state and challenge) become `…`, so a log line hands no one a
 * working link or code. Short ids (case and order codes) stay: they open nothing without a session.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q))
    .split('/')
    .map((segment) => (SECRET_SEGMENT.test(segment) ? '…' : segment))
    .join('/');
  if (q < 0) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? pair : `${pair.slice(0, eq)}=…`;
    })
    .join('&');
  return `${path}?${query}`;
}

/** A destination for pino that writes `prettyLine`s: no worker thread, nothing to install. */
function prettyStream(out: NodeJS.WritableStream) {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n'))
        // The banner printed after listening names the address already.
        if (line && !line.includes('"msg":"Server listening at')) out.write(`${prettyLine(line)}\n`);
    },
  };
}

/** The server's logger settings from the config (see docs/operations.md "Logs"). */
export function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logFormat' | 'logRequests'>,
): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  // Request lines carry the address without its secrets (docs/operations.md "Logs").
  const serializers = {
    req: (request: { method: string; url: string; hostname?: string; ip?: string }) => ({
      method: request.method,
      url: redactUrl(request.url),
      host: request.hostname,
      remoteAddress: request.ip,
    }),
  };
  return {
    logger:
      config.logFormat === 'json'
        ? { level: config.logLevel, serializers }
        : { level: config.logLevel, stream: prettyStream(process.stdout), serializers },
    // Fastify's own request lines are two JSON objects per request; a terminal gets one short line instead.
    // Server errors are logged by the error handler either way.
    logController: new LogController({ disableRequestLogging: config.logFormat === 'pretty' || !config.logRequests }),
  };
}

/** With readable logs and LOG_REQUESTS=true: one line per answered request. */
export function registerRequestLines(app: FastifyInstance, config: Pick<Config, 'logFormat' | 'logRequests'>) {
  if (config.logFormat !== 'pretty' || !config.logRequests) return;
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      `${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`,
    );
    done();
  });
}
