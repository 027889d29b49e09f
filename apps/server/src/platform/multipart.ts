import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { hasUnsafeText } from '@portal/contracts';
import { AppError, fail } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A multipart call's parts: read by `multipartParts` and documented as the call's request body. */
    multipart?: MultipartLimits;
  }
}

/** The longest text a multipart field may hold. */
export const MULTIPART_FIELD_MAX = 200;

export interface MultipartLimits {
  /** The text fields the call takes; any other field is refused, and so is a field given twice. */
  fields: readonly string[];
  /** The name of the file parts. */
  fileField: string;
  maxFiles: number;
  maxFileBytes: number;
}

export type MultipartPart =
  | { type: 'field'; name: string; value: string }
  | { type: 'file'; filename: string; file: Readable & { truncated?: boolean } };

/**
 * The parts of a multipart request with the call's rules (its `config.multipart`) applied as they arrive: unknown or
 * repeated fields, unsafe text, too many files and oversized files are refused with the catalogue's answers (never
 * the parser's own errors, which would surface as 500s). The caller consumes each file stream before asking for the
 * next part.
 */
export async function* multipartParts(request: FastifyRequest): AsyncGenerator<MultipartPart> {
  const limits = request.routeOptions.config.multipart;
  if (!limits) throw new Error(`${request.routeOptions.url} reads multipart parts without declaring config.multipart`);
  if (!request.isMultipart()) fail('PARAM_INVALID', { field: limits.fileField }, { field: limits.fileField });
  const seen = new Set<string>();
  let files = 0;
  // One more file than allowed is let through the parser so that the excess is refused here, by name.
  const parts = request.parts({
    limits: {
      fileSize: limits.maxFileBytes,
      files: limits.maxFiles + 1,
      fields: limits.fields.length + 1,
      parts: limits.fields.length + limits.maxFiles + 2,
    },
  });
  let read = false;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        const name = part.fieldname;
        if (!limits.fields.includes(name) || seen.has(name)) {
          throw new AppError('PARAM_INVALID', { field: name }, { field: name }, 'paramUnknownField');
        }
        seen.add(name);
        const value = typeof part.value === 'string' ? part.value.trim() : '';
        if (hasUnsafeText(value) || value.length > MULTIPART_FIELD_MAX)
          fail('PARAM_INVALID', { field: name }, { field: name });
        yield { type: 'field', name, value };
        continue;
      }
      if (part.fieldname !== limits.fileField) {
        throw new AppError('PARAM_INVALID', { field: part.fieldname }, { field: part.fieldname }, 'paramUnknownField');
      }
      files += 1;
      if (files > limits.maxFiles) fail('TOO_MANY_FILES', { count: limits.maxFiles });
      // The parser destroys a file part whose body ended early while the caller was busy with an earlier part: no
      // end or error will come, so a caller reading it would wait forever.
      if (part.file.destroyed) fail('PARAM_INVALID', { field: 'body' }, { field: 'body' });
      yield { type: 'file', filename: part.filename, file: part.file };
    }
    read = true;
  } catch (err) {
    throw asCatalogueError(err, limits);
  } finally {
    // Refused before the end of its body (by these rules or by the caller): the rest is read and dropped, or it
    // would stay in the connection and the client's next request on it would never be answered.
    if (!read) {
      request.raw.unpipe();
      request.raw.resume();
    }
  }
}

/** An error met while reading a file part's bytes, as the catalogue's answer. */
export function fileStreamError(err: unknown, maxBytes: number): unknown {
  return asCatalogueError(err, { fields: [], fileField: 'file', maxFiles: 1, maxFileBytes: maxBytes });
}

/** The parser's limit and stream errors as the catalogue's answers. */
function asCatalogueError(err: unknown, limits: MultipartLimits): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new AppError('FILE_TOO_LARGE', { mb: limits.maxFileBytes / 1024 / 1024 });
  if (code === 'FST_FILES_LIMIT') return new AppError('TOO_MANY_FILES', { count: limits.maxFiles });
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return new AppError('PARAM_INVALID', { field: 'body' }, { field: 'body' });
  }
  if (code?.startsWith('FST_') || MALFORMED_BODY.test((err as Error).message)) {
    return new AppError('PARAM_INVALID', { field: 'body' }, { field: 'body' });
  }
  return err;
}

/** The multipart parser's own words for a body that is not well-formed multipart (no boundary, cut short). */
const MALFORMED_BODY = /^(Multipart: |Boundary required|Unexpected end of (form|multipart data)|.* terminated early)/;

/** A file part read whole, for small files only; the catalogue's FILE_TOO_LARGE beyond `maxBytes`. */
export async function readLimited(file: Readable & { truncated?: boolean }, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of file) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) fail('FILE_TOO_LARGE', { mb: maxBytes / 1024 / 1024 });
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw fileStreamError(err, maxBytes);
  }
  if (file.truncated) fail('FILE_TOO_LARGE', { mb: maxBytes / 1024 / 1024 });
  return Buffer.concat(chunks);
}
