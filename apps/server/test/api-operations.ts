import type { Harness } from './harness.js';

/** The JSON Schema subset the API document uses for requests. */
export interface JsonSchema {
  type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'array';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

export type Security = 'session' | 'device' | 'public';

/** One operation of the served OpenAPI document, as a generator needs it. */
export interface Operation {
  operationId: string;
  method: 'GET' | 'POST';
  /** Relative to /api/v2, with `{name}` path parameters: 'file/download/{fileCode}'. */
  path: string;
  security: Security;
  body?: { contentType: 'application/json' | 'multipart/form-data'; schema: JsonSchema };
  parameters: Array<{ in: 'path' | 'query'; name: string; required: boolean; schema: JsonSchema }>;
  /** The permission code its caller's role must hold (`x-permission`), when the route names one. */
  permission?: string;
  /** The catalogue codes and HTTP statuses it documents. */
  codes: number[];
  statuses: number[];
}

interface DocumentOperation {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: JsonSchema }>;
  responses: Record<string, unknown>;
  'x-codes': number[];
  'x-permission'?: string;
}

/** Every operation of the document the running app serves: a call added to the server is listed here at once. */
export async function readOperations(h: Harness): Promise<Operation[]> {
  const doc = (await h.app.inject({ url: '/api/v2/openapi.json' })).json<{
    paths: Record<string, Record<string, DocumentOperation>>;
  }>();
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, op]) => {
      const content = op.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0] as 'application/json' | 'multipart/form-data' | undefined;
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      return {
        operationId: op.operationId,
        method: method.toUpperCase() as 'GET' | 'POST',
        path: template.replace(/^\/api\/v2\//, ''),
        security: schemes.includes('deviceToken') ? 'device' : schemes.length ? 'session' : 'public',
        body: contentType ? { contentType, schema: content[contentType]!.schema } : undefined,
        parameters: (op.parameters ?? []).map((p) => ({
          in: p.in as 'path' | 'query',
          name: p.name,
          required: Boolean(p.required),
          schema: p.schema,
        })),
        permission: op['x-permission'],
        codes: [200, ...op['x-codes']],
        statuses: Object.keys(op.responses).map(Number),
      } satisfies Operation;
    }),
  );
}
