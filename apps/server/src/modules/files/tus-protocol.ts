import type { IncomingMessage } from 'node:http';
import { TUS_RESUMABLE } from '@tus/server';
import { AppError } from '../../platform/errors.js';
import { parseChecksum, type Checksum } from './upload-store.js';

const TUS_METHODS = new Set(['POST', 'HEAD', 'PATCH', 'OPTIONS', 'DELETE']);

/** A request tus must not see: answered with a catalogue error, or with the version refusal of the protocol. */
export type TusRefusal = AppError | { status: 412; headers: Record<string, string>; body: string };

/**
 * The parts of tus 1.0 that @tus/server leaves to its host: X-HTTP-Method-Override, 412 with Tus-Version for a
 * version it does not speak (it answers 400), 415 for a PATCH that is not application/offset+octet-stream (the
 * web framework would answer without tus headers), and reading Upload-Checksum before any byte is taken.
 */
export function readTusRequest(req: IncomingMessage): { refusal: TusRefusal } | { checksum: Checksum | null } {
  const override = header(req, 'x-http-method-override')?.toUpperCase();
  if (override && TUS_METHODS.has(override)) req.method = override;
  const method = req.method ?? 'GET';
  if (method !== 'OPTIONS' && method !== 'GET' && header(req, 'tus-resumable') !== TUS_RESUMABLE)
    return {
      refusal: {
        status: 412,
        headers: { 'Tus-Resumable': TUS_RESUMABLE, 'Tus-Version': TUS_RESUMABLE },
        body: `Tus-Resumable ${TUS_RESUMABLE} required\n`,
      },
    };
  if (method === 'PATCH' && header(req, 'content-type') !== 'application/offset+octet-stream')
    return { refusal: new AppError('UNSUPPORTED_MEDIA_TYPE') };
  // The quota is reserved from Upload-Length at creation, so a length given later (creation-defer-length) is not
  // offered: say which header, as any other bad input.
  if (method === 'POST' && header(req, 'upload-defer-length') !== undefined)
    return { refusal: new AppError('PARAM_INVALID', { field: 'Upload-Defer-Length' }) };
  const checksum = method === 'PATCH' || method === 'POST' ? header(req, 'upload-checksum') : undefined;
  try {
    return { checksum: checksum === undefined ? null : parseChecksum(checksum) };
  } catch (err) {
    return { refusal: err as AppError };
  }
}

function header(req: IncomingMessage, name: string) {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
