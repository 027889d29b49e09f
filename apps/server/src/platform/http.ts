import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS, findUnsafeText, isTimeZone, normalizeLanguage, type Language } from '@portal/contracts';
import { AppError } from './errors.js';
import { t } from './i18n.js';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
    timezone: string;
  }
}

/** The `info` header of spec §7: a JSON object; only what the server uses is read. */
export function readInfoHeader(request: FastifyRequest): {
  accessToken?: string;
  endPointClass?: string;
  appCode?: string;
} {
  return parseInfo(request.headers.info);
}
/** The access token of an `info` header value, for callers outside Fastify's request (tus). */
export function readInfoToken(raw: string | null | undefined): string | undefined {
  const token = parseInfo(raw ?? undefined).accessToken;
  return typeof token === 'string' && token ? token : undefined;
}
function parseInfo(raw: string | string[] | undefined): {
  accessToken?: string;
  endPointClass?: string;
  appCode?: string;
} {
  if (typeof raw !== 'string' || raw.length > 4096) return {};
  try {
    // Browsers send it encoded, other clients as plain JSON.
    const parsed = JSON.parse(raw.includes('%') ? decodeURIComponent(raw) : raw) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * Every request's body, query and parameters are first searched for characters no text may hold (NUL and other
 * controls, lone surrogates), whatever the route's schema says, so no present or future call can pass them on to
 * the database: the answer is 400 naming the field.
 */
export function withSafeText<S>(compile: FastifySchemaCompiler<S>): FastifySchemaCompiler<S> {
  return (route) => {
    const validate = compile(route);
    return (data: unknown) => {
      const path = findUnsafeText(data);
      if (path === undefined) return validate(data);
      const issue = { instancePath: path, schemaPath: '', keyword: 'unsafe_text', params: {}, message: 'unsafe text' };
      return { error: [issue] };
    };
  };
}

export function ok<T>(request: FastifyRequest, data: T) {
  return { code: 200, msg: t(request.lang, 'success'), data };
}

function fieldOf(path: string): string {
  return path.replace(/^\//, '').replace(/\//g, '.') || 'body';
}

/** Turns a schema validation failure into the catalogue's PARAM_INVALID naming the field. */
function validationMessage(request: FastifyRequest, error: FastifyError) {
  const issues = (error.validation ?? []).map((v) => {
    const field = fieldOf(v.instancePath);
    const params = v.params;
    let key = 'paramInvalid';
    const vars: Record<string, string | number> = { field };
    if (v.keyword === 'invalid_type' && (params.input === undefined || params.input === null)) key = 'paramRequired';
    else if (v.keyword === 'invalid_type') key = 'paramWrongType';
    else if (v.keyword === 'too_big' && params.origin === 'string') {
      key = 'paramTooLong';
      vars.n = Number(params.maximum);
    } else if (v.keyword === 'too_small' && params.origin === 'string' && Number(params.minimum) <= 1)
      key = 'paramRequired';
    else if (v.keyword === 'too_small' && params.origin === 'string') {
      key = 'paramTooShort';
      vars.n = Number(params.minimum);
    } else if (v.keyword === 'invalid_value' || v.keyword === 'invalid_union') {
      key = 'paramUnknownValue';
      vars.values = Array.isArray(params.values) ? params.values.join(', ') : '';
      if (!vars.values) key = 'paramInvalid';
    } else if (v.keyword === 'unrecognized_keys') key = 'paramUnknownField';
    else if (v.keyword === 'unsafe_text') key = 'paramUnsafeText';
    return { field, message: t(request.lang, key, vars) };
  });
  return issues;
}

/** Longer than any path parameter a route takes (codes, captcha ids), so that each route's schema judges its own. */
export const PATH_PARAM_MAX = 500;

/** One cookie's value from a Cookie header (the portal reads cookies in one place only; no parser for all). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * What the router refuses before any route runs (a path that is not UTF-8 once decoded, a parameter past
 * PATH_PARAM_MAX) is answered like any bad input: the catalogue's 400 naming the path.
 */
export function answerFrameworkError(_error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const lang = normalizeLanguage(typeof request.headers.lang === 'string' ? request.headers.lang : undefined);
  const message = t(lang, 'paramInvalid', { field: 'path' });
  void reply.status(400).send({
    code: ERRORS.PARAM_INVALID.code,
    msg: `path: ${message}`,
    data: { field: 'path', errors: [{ field: 'path', message }] },
  });
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      const msg = t(request.lang, error.messageKey ?? error.entry.key, error.params);
      return reply.status(error.entry.status).send({
        code: error.entry.code,
        msg: error.params.field && error.messageKey ? `${error.params.field}: ${msg}` : msg,
        data: error.data,
      });
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      const issues = validationMessage(request, error);
      const first = issues[0] ?? { field: 'body', message: t(request.lang, 'paramInvalid', { field: 'body' }) };
      return reply.status(400).send({
        code: ERRORS.PARAM_INVALID.code,
        msg: `${first.field}: ${first.message}`,
        data: { field: first.field, errors: issues },
      });
    }
    const status = error.statusCode ?? 500;
    const byStatus: Record<number, keyof typeof ERRORS> = {
      400: 'PARAM_INVALID',
      404: 'NOT_FOUND',
      413: 'PAYLOAD_TOO_LARGE',
      415: 'UNSUPPORTED_MEDIA_TYPE',
      429: 'TOO_MANY_REQUESTS',
    };
    const name = status < 500 ? (byStatus[status] ?? 'PARAM_INVALID') : 'INTERNAL';
    if (status >= 500) request.log.error({ err: error }, 'unhandled error');
    const entry = ERRORS[name];
    return reply
      .status(status < 500 ? status : 500)
      .send({ code: entry.code, msg: t(request.lang, entry.key, { field: 'body' }), data: null });
  });

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ code: ERRORS.NOT_FOUND.code, msg: t(request.lang, ERRORS.NOT_FOUND.key), data: null }),
  );
}

/**
 * Time zones found valid: a client sends the same one with every call, and checking one builds a date formatter.
 * There are about 600 zone names; the set is emptied if junk ever fills it.
 */
const validTimeZones = new Set<string>();
function isKnownTimeZone(name: string): boolean {
  if (validTimeZones.has(name)) return true;
  if (!isTimeZone(name)) return false;
  if (validTimeZones.size >= 2000) validTimeZones.clear();
  validTimeZones.add(name);
  return true;
}

export function registerRequestContext(app: FastifyInstance) {
  app.decorateRequest('lang', 'en');
  app.decorateRequest('timezone', 'UTC');
  // A callback hook, not an async one: it awaits nothing, and every request passes here.
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers.lang;
    const accept = request.headers['accept-language'];
    request.lang = normalizeLanguage(
      typeof header === 'string' ? header : typeof accept === 'string' ? accept.split(',')[0] : undefined,
    );
    const tz = request.headers.timezone;
    if (typeof tz === 'string' && tz.length < 64) request.timezone = isKnownTimeZone(tz) ? tz : 'UTC';
    done();
  });
}
