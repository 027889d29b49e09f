import type { FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import type { App } from '../../platform/services.js';
import { LIVE_LIMITS, type LiveHub } from './live-hub.js';

/** Where the web app opens its socket: the application config's `wsEndpoint` (spec §3). */
export const LIVE_PATH = '/ws';

/**
 * Whether a socket's page may open it: a browser sends its page's origin, which must be the address the socket was
 * asked at or the portal's public address (another site's page cannot ride a signed-in browser's cookies or tokens).
 * Programs that are not browsers send none; they authenticate like anyone else.
 */
export function originAllowed(request: FastifyRequest, publicUrl: string): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    const { host, origin: normalized } = new URL(origin);
    return host === request.headers.host || normalized === new URL(publicUrl).origin;
  } catch {
    return false;
  }
}

const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/** The live socket (docs/architecture.md, "Events and live updates"). */
export async function registerLive(app: App, hub: LiveHub, publicUrl: string) {
  await app.register(websocket, {
    // Compression is off (its memory per socket, and the attacks on it); a frame larger than the limit is refused.
    options: { maxPayload: LIVE_LIMITS.maxPayloadBytes, perMessageDeflate: false },
    // What a client does to its own socket (an oversized or malformed frame, a dropped connection) is not the
    // server's error: noted at info level. The socket ends either way.
    errorHandler: (error, socket, request) => {
      const code = (error as NodeJS.ErrnoException).code;
      const byClient = typeof code === 'string' && (code.startsWith('WS_ERR_') || CLIENT_GONE.has(code));
      if (byClient) request.log.info({ code }, 'live: a socket broke the protocol or went away');
      else request.log.error({ err: error }, 'live: a socket failed');
      socket.terminate();
    },
  });
  app.get(
    LIVE_PATH,
    {
      websocket: true,
      schema: { hide: true },
      // Refused before the upgrade: the page's origin is not the portal's.
      preValidation: async (request, reply) => {
        if (!originAllowed(request, publicUrl))
          await reply.code(403).send({ code: 403, msg: 'Access Denied', data: null });
      },
    },
    (socket, request) => hub.accept(socket, request.ip),
  );
}
