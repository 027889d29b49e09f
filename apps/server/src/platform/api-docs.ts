import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { RouteOptions } from 'fastify';
import { createJsonSchemaTransformObject, jsonSchemaTransform } from 'fastify-type-provider-zod';
import {
  API_BASE,
  APP_SCOPE_SUMMARY,
  ERRORS,
  appScopesFor,
  errorByCode,
  type ErrorEntry,
  type ErrorName,
} from '@portal/contracts';
import type { Authentication } from './auth.js';
import { MULTIPART_FIELD_MAX, type MultipartLimits } from './multipart.js';
import { t } from './i18n.js';
import { ROOT_DIR } from './paths.js';
import type { App } from './services.js';

/**
 * The OpenAPI document (served at /api/v2/openapi.json, committed as docs/openapi.json) is derived from
 * the routes: their zod schemas, the scope they are registered in (public or private), and their config.
 * Routes only add what cannot be derived: `config.errors`, the catalogue entries their service can answer.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Catalogue entries the route's service can answer, besides those its declaration implies. */
    errors?: readonly ErrorName[];
  }
}

const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The `accessToken` of `login` as `Authorization: Bearer <accessToken>`.',
  },
  info: {
    type: 'apiKey',
    in: 'header',
    name: 'info',
    description:
      'The web app\'s `info` header: JSON carrying the access token, e.g. `{"appCode":"portal-web","accessToken":"<accessToken>","endPointClass":"web"}`.',
  },
  deviceToken: {
    type: 'http',
    scheme: 'bearer',
    description: "A scanner's device token from `device/activate` (`dvc_…`) as `Authorization: Bearer <token>`.",
  },
  appToken: {
    type: 'oauth2',
    description:
      'A registered app\'s access token (OAuth 2.0 authorization code with PKCE S256; pushed requests for confidential apps), as `Authorization: Bearer <access token>`. It opens the calls its scopes list, within what the granting user\'s role allows. Discovery: `/oidc/.well-known/openid-configuration`. See docs/api.md, "Apps".',
    flows: {
      authorizationCode: {
        authorizationUrl: '/oidc/auth',
        tokenUrl: '/open/portal/auth',
        refreshUrl: '/open/portal/auth',
        scopes: APP_SCOPE_SUMMARY,
      },
    },
  },
} as const;

/** The session schemes, and an app's token with the scopes that open the call (when any does). */
function sessionSecurity(url: string): Array<Record<string, string[]>> {
  const call = url.startsWith(`${API_BASE}/`) ? url.slice(API_BASE.length + 1) : url;
  const scopes = appScopesFor(call);
  return [...SECURITY.session, ...(scopes.length ? [{ appToken: scopes }] : [])];
}

/** Either scheme opens a session call; the device API takes the device token; the rest is public. */
const SECURITY: Record<Authentication | 'public', Array<Record<string, string[]>>> = {
  session: [{ bearer: [] }, { info: [] }],
  device: [{ deviceToken: [] }],
  public: [],
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

type RouteLike = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config' | 'onRequest'>;

const SCHEME = Symbol('authentication');
/**
 * Marks a hook that authenticates the caller, so the document names its security scheme. Authentication is an
 * `onRequest` hook, as for sessions: a caller without credentials is refused before its body is read or judged.
 */
export function authenticatesWith<T extends object>(authentication: Authentication, hook: T): T {
  return Object.assign(hook, { [SCHEME]: authentication });
}

export function authenticationOf(route: RouteLike): Authentication | undefined {
  if (route.config?.authentication) return route.config.authentication;
  const hooks = [route.onRequest ?? []].flat() as Array<{ [SCHEME]?: Authentication }>;
  return hooks.find((h) => h[SCHEME])?.[SCHEME];
}

/** Every catalogue entry a route can answer: what its declaration implies, plus what it declares. */
export function answersOf(route: RouteLike): ErrorName[] {
  const config = route.config ?? {};
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown; params?: unknown };
  const takesBody = [route.method].flat().some((m) => BODY_METHODS.has(m));
  const names = new Set<ErrorName>(config.errors);
  if (takesBody || schema.body || schema.querystring || schema.params) names.add('PARAM_INVALID');
  if (takesBody) names.add('PAYLOAD_TOO_LARGE').add('UNSUPPORTED_MEDIA_TYPE');
  const authentication = authenticationOf(route);
  if (authentication) names.add('TOKEN_INVALID');
  if (authentication === 'session') {
    names.add('SESSION_ENDED').add('ORGANIZATION_DISABLED');
    // A write sent again with its Idempotency-Key (platform/idempotency.ts).
    if (takesBody) names.add('IDEMPOTENCY_KEY_REUSED').add('IDEMPOTENCY_PENDING');
    // A user who must change a forced password gets NO_PERMISSION everywhere else.
    if (!config.allowForcedPasswordChange) names.add('NO_PERMISSION');
  }
  if (config.permission) names.add(config.permissionRefusal ?? 'NO_PERMISSION');
  if (config.sensitive) names.add(config.reauthRefusal ?? 'REAUTH_REQUIRED');
  if (config.rateLimit) names.add('TOO_MANY_REQUESTS');
  names.add('INTERNAL');
  return [...names].sort((a, b) => ERRORS[a].code - ERRORS[b].code);
}

/** `user/refresh_token` → `userRefreshToken`; path parameters are left out (`file/download/:fileCode` → `fileDownload`). */
export function operationIdOf(url: string): string {
  const path = url.startsWith(`${API_BASE}/`) ? url.slice(API_BASE.length) : url;
  const words = path
    .split('/')
    .filter((segment) => segment && !segment.startsWith(':') && segment !== '*')
    .flatMap((segment) => segment.split(/[._-]+/))
    .filter(Boolean);
  return words.map((w, i) => (i === 0 ? w[0]!.toLowerCase() : w[0]!.toUpperCase()) + w.slice(1)).join('');
}

type Transform = typeof jsonSchemaTransform;
type Schema = Record<string, unknown> & { response?: Record<string, unknown>; produces?: readonly string[] };

/** Files, images and exports answer the content itself, not the envelope. */
function contentResponse(types: readonly string[] = ['application/octet-stream']) {
  return {
    description: 'The content itself (not the JSON envelope).',
    content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
  };
}

/** A multipart call's body as its `config.multipart` declares it: its text fields and its file parts. */
function multipartBody(limits: MultipartLimits) {
  const file = { type: 'string', format: 'binary', description: `At most ${limits.maxFileBytes / 1024 / 1024} MB.` };
  return {
    type: 'object',
    properties: {
      ...Object.fromEntries(limits.fields.map((name) => [name, { type: 'string', maxLength: MULTIPART_FIELD_MAX }])),
      [limits.fileField]: limits.maxFiles > 1 ? { type: 'array', items: file, maxItems: limits.maxFiles } : file,
    },
    required: [...limits.fields, limits.fileField],
  };
}

const documentRoute: Transform = (input) => {
  const transformed = jsonSchemaTransform(input);
  const schema = (transformed.schema ?? {}) as Schema;
  if (schema.hide) return transformed;
  const success = schema.response?.['200'];
  const multipart = input.route.config?.multipart;
  return {
    url: transformed.url,
    schema: {
      ...schema,
      ...(multipart && { body: multipartBody(multipart), consumes: ['multipart/form-data'] }),
      response: {
        ...schema.response,
        200: success
          ? { ...success, 'x-response-description': 'Success: the envelope with code 200.' }
          : contentResponse(schema.produces),
      },
      operationId: (schema.operationId as string | undefined) ?? operationIdOf(input.url),
      security:
        authenticationOf(input.route) === 'session'
          ? sessionSecurity(input.url)
          : SECURITY[authenticationOf(input.route) ?? 'public'],
      'x-codes': answersOf(input.route).map((name) => ERRORS[name].code),
      ...permissionOf(input.route),
    },
  };
};

/**
 * What a session call asks of the caller's role: `x-permission` names the permission code (or says the request
 * decides it, as an order action's does); `x-every-member` says why any signed-in member may make it.
 */
function permissionOf(route: RouteLike) {
  const { permission, everyMember } = route.config ?? {};
  if (typeof permission === 'string') return { 'x-permission': permission };
  if (permission) return { 'x-permission': PERMISSION_FROM_REQUEST };
  if (everyMember) return { 'x-every-member': everyMember };
  return {};
}

/** `x-permission` of calls whose permission depends on what is asked (an order's action, a share's resource). */
export const PERMISSION_FROM_REQUEST = 'depends on the request';

const ERROR_ENVELOPE = {
  type: 'object',
  required: ['code', 'msg', 'data'],
  properties: {
    code: { type: 'integer', description: 'The code of the error catalogue; 200 is success.' },
    msg: { type: 'string', description: 'The message, in the language of the `lang` header.' },
    data: {
      description:
        'Details: for 400 the first failing field and every problem (`{field, errors: [{field, message}]}`); some codes carry more (1002 `forceChangePassword`, 1004 `failures`, 2037 `missing`); otherwise null.',
    },
  },
};

/** An entry's English message with its placeholders shown as `{name}`. */
function templateOf(entry: ErrorEntry): string {
  const asPlaceholders = new Proxy({}, { get: (_, name) => `{${String(name)}}` });
  return t('en', entry.key, asPlaceholders);
}

function exampleOf(name: ErrorName) {
  const entry = ERRORS[name];
  const message = templateOf(entry);
  if (name === 'PARAM_INVALID')
    return {
      code: entry.code,
      msg: `{field}: ${message}`,
      data: { field: '{field}', errors: [{ field: '{field}', message }] },
    };
  return { code: entry.code, msg: message, data: null };
}

function errorResponse(names: ErrorName[]) {
  const list = names.map((name) => `- \`${ERRORS[name].code}\` ${name}: ${templateOf(ERRORS[name])}`).join('\n');
  return {
    description: `The envelope with one of these catalogue codes:\n${list}`,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/ErrorEnvelope' },
            { type: 'object', properties: { code: { type: 'integer', enum: names.map((n) => ERRORS[n].code) } } },
          ],
        },
        examples: Object.fromEntries(
          names.map((name) => [name, { summary: `${ERRORS[name].code} ${name}`, value: exampleOf(name) }]),
        ),
      },
    },
  };
}

const RENEWED_TOKEN_HEADER = {
  'x-access-token': {
    description: 'A renewed access token, sent once the presented one is past half its life: use it from then on.',
    schema: { type: 'string' },
  },
};

interface Operation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, Record<string, unknown>>;
  'x-codes'?: number[];
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown>; responses?: Record<string, unknown> };
}

// Components of registered zod schemas, in the document's dialect (the default would be JSON Schema 2020-12).
const registeredSchemas = createJsonSchemaTransformObject({ zodToJsonConfig: { target: 'openapi-3.0' } });
type TransformObject = typeof registeredSchemas;

/**
 * The error responses of every operation, grouped by HTTP status. Each group is a shared response named
 * by its codes (`Error401_402`), so the many calls answering alike refer to one definition.
 */
const documentErrors: TransformObject = (input) => {
  const doc = registeredSchemas(input) as Document;
  const responses: Record<string, unknown> = {};
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const byStatus = new Map<number, ErrorName[]>();
      for (const code of operation['x-codes'] ?? []) {
        const entry = errorByCode(code)!;
        byStatus.set(entry.status, [...(byStatus.get(entry.status) ?? []), entry.name]);
      }
      for (const [status, names] of [...byStatus].sort(([a], [b]) => a - b)) {
        const name = `Error${names.map((n) => ERRORS[n].code).join('_')}`;
        responses[name] ??= errorResponse(names);
        operation.responses[String(status)] = { $ref: `#/components/responses/${name}` };
      }
      if (operation.security?.some((s) => 'bearer' in s) && operation.responses['200'])
        operation.responses['200'].headers = RENEWED_TOKEN_HEADER;
    }
  }
  doc.components = {
    ...doc.components,
    schemas: { ...doc.components?.schemas, ErrorEnvelope: ERROR_ENVELOPE },
    responses: Object.fromEntries(
      Object.entries(responses).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })),
    ),
  };
  typeNullableUnions(doc);
  dropUnusedSchemas(doc);
  return doc;
};

/**
 * OpenAPI 3.0 wants a `type` beside `nullable`; zod's nullable union of literals (`zIntOf(1, 7, 30).nullable()`)
 * comes as `{nullable, anyOf}`. When every member has the same type, that type is the union's too.
 */
function typeNullableUnions(node: unknown) {
  if (Array.isArray(node)) for (const item of node) typeNullableUnions(item);
  else if (node && typeof node === 'object') {
    const schema = node as {
      nullable?: boolean;
      type?: string;
      anyOf?: { type?: string }[];
      oneOf?: { type?: string }[];
    };
    const members = schema.anyOf ?? schema.oneOf;
    if (schema.nullable && !schema.type && members?.length) {
      const types = new Set(members.map((m) => m.type));
      const [only] = types;
      if (types.size === 1 && only) schema.type = only;
    }
    for (const value of Object.values(node)) typeNullableUnions(value);
  }
}

const SCHEMA_REF = '#/components/schemas/';

/** The component names a part of the document refers to. */
function schemaRefsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) schemaRefsIn(item, found);
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF))
        found.push(value.slice(SCHEMA_REF.length));
      else schemaRefsIn(value, found);
    }
  return found;
}

/** Registered zod schemas come in an input and an output form; only those referred to are kept. */
function dropUnusedSchemas(doc: Document) {
  const schemas = doc.components?.schemas ?? {};
  const used = new Set<string>();
  const pending = schemaRefsIn([doc.paths, doc.components?.responses]);
  while (pending.length) {
    const name = pending.pop()!;
    if (used.has(name)) continue;
    used.add(name);
    schemaRefsIn(schemas[name], pending);
  }
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

const DESCRIPTION = `Every call answers the envelope \`{code, msg, data}\`; code 200 is success, any other code comes from the
error catalogue, and each operation lists the codes it can answer under its HTTP statuses (and all of them in \`x-codes\`).

- Send \`lang\` (one of the 21 language codes) for messages in that language and \`timezone\` (IANA name) for dates.
- Signed-in calls take the access token of \`login\` as \`Authorization: Bearer <accessToken>\` or inside the \`info\` header;
  on 401 call \`user/refresh_token\` once. A response may carry \`x-access-token\`: a renewed token to use from then on.
- The scanner API (\`device/*\`) takes the device token of \`device/activate\`.
- A registered app calls with its OAuth access token (\`appToken\`): the operations that list it, within its scopes.
- Case files are uploaded with the tus protocol at \`/api/v2/files/tus\`, with the token of \`oss/ossSts\`.

See docs/api.md.`;

/** Swagger UI at /api/docs and the document built from the routes' declarations. */
export async function registerApiDocs(app: App, title: string) {
  await app.register(swagger, {
    openapi: {
      info: { title, version: '2.0.0', description: DESCRIPTION },
      servers: [{ url: '/' }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: documentRoute,
    transformObject: documentErrors,
  });
  // The portal's own mark in Swagger UI's top bar, read here: the plugin would read its default logo asynchronously,
  // and at start-up that read waits behind the database's start (about 0.1 s before the first answer).
  const logo = { type: 'image/svg+xml', content: readFileSync(join(ROOT_DIR, 'apps', 'web', 'public', 'favicon.svg')) };
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, logo });
}
