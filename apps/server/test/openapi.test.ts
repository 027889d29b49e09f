import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { formatOpenApi, generateOpenApi, OPENAPI_FILE } from '../src/openapi.js';
import { ROOT_DIR } from '../src/platform/paths.js';
import { createHarness, createUser, login, type Harness } from './harness.js';

interface Response {
  $ref?: string;
  headers?: Record<string, unknown>;
}
interface Operation {
  operationId: string;
  security: Array<Record<string, string[]>>;
  responses: Record<string, Response>;
  'x-codes': number[];
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { content: Record<string, { schema: unknown; examples: object }> }> };
}

let h: Harness;
let webDir: string;
let doc: Document;
beforeAll(async () => {
  // Served as in production: with the web app, whose pages must stay out of the document.
  webDir = mkdtempSync(join(tmpdir(), 'portal-web-'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>portal</title>');
  writeFileSync(join(webDir, 'share.html'), '<!doctype html><title>shared</title>');
  h = await createHarness({}, { webDir });
  doc = (await h.app.inject({ url: '/api/v2/openapi.json' })).json<Document>();
});
afterAll(async () => {
  await h.close();
  rmSync(webDir, { recursive: true, force: true });
});

const operation = (method: string, path: string) => doc.paths[`/api/v2/${path}`]![method]!;
/** The catalogue codes an operation documents under an HTTP status. */
function codesUnder(op: Operation, status: number): number[] {
  const ref = op.responses[String(status)]?.$ref;
  if (!ref) return [];
  const response = doc.components.responses[ref.replace('#/components/responses/', '')]!;
  const schema = response.content['application/json']!.schema as { allOf: Array<{ properties?: any }> };
  return schema.allOf[1]!.properties.code.enum as number[];
}

describe('the OpenAPI document', () => {
  it('is served as committed, and leaves the web app out', async () => {
    expect((await h.app.inject({ url: '/' })).body).toContain('<title>portal</title>');
    // The share pages are their own document; every other page is the app's.
    for (const url of ['/case-show?code=abc', '/order-show/', '/share/report?code=abc'])
      expect((await h.app.inject({ url })).body, url).toContain('<title>shared</title>');
    for (const url of ['/case-management', '/share', '/case-show/other'])
      expect((await h.app.inject({ url })).body, url).toContain('<title>portal</title>');
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/api/v2/'))).toEqual([]);
    // Run `npm run openapi` after changing a route.
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    expect(formatOpenApi(doc)).toBe(committed);
    expect(await generateOpenApi()).toBe(committed);
  });

  it('declares the security of each call from where it is registered', () => {
    expect(operation('post', 'user/info').security).toEqual([{ bearer: [] }, { info: [] }]);
    expect(operation('post', 'login').security).toEqual([]);
    expect(operation('get', 'file/download/{fileCode}').security).toEqual([]);
    expect(operation('post', 'device/heartbeat').security).toEqual([{ deviceToken: [] }]);
    // An app's token opens the calls its scopes list, and only those.
    expect(operation('post', 'case/list').security).toEqual([
      { bearer: [] },
      { info: [] },
      { appToken: ['cases:read'] },
    ]);
    expect(operation('post', 'order/action').security).toContainEqual({ appToken: ['orders:write'] });
    expect(operation('post', 'case/create').security).toEqual([{ bearer: [] }, { info: [] }]);
    const scheme = (doc as unknown as { components: { securitySchemes: Record<string, any> } }).components
      .securitySchemes.appToken;
    expect(scheme.flows.authorizationCode).toMatchObject({
      authorizationUrl: '/oidc/auth',
      tokenUrl: '/open/portal/auth',
    });
    expect(Object.keys(scheme.flows.authorizationCode.scopes)).toContain('orders:write');
  });

  it('documents the answers a call gives, and the calls answer them', async () => {
    const resetPass = operation('post', 'user/resetPass');
    expect(codesUnder(resetPass, 401)).toEqual([401, 402]);
    expect(codesUnder(resetPass, 403)).toEqual([1002, 1006, 1074]);
    expect(codesUnder(resetPass, 404)).toEqual([404]);
    expect(resetPass.responses['200']!.headers).toHaveProperty('x-access-token');
    expect(codesUnder(operation('post', 'login'), 401)).toEqual([]);
    expect(codesUnder(operation('post', 'login'), 429)).toEqual([429, 1075]);

    const admin = await createUser(h.db, { orgType: OrgType.Inner });
    const { accessToken } = await login(h, admin.account);
    const unconfirmed = await h.call('user/resetPass', { token: accessToken, body: { userCode: 'u-someone' } });
    expect([unconfirmed.status, unconfirmed.code]).toEqual([403, 1074]);
    expect(codesUnder(resetPass, unconfirmed.status)).toContain(unconfirmed.code);
  });

  it('generates a client that type-checks and calls user/info', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-client-'));
    try {
      // What an integrator does: types from the committed document, then openapi-fetch.
      writeFileSync(join(dir, 'schema.d.ts'), astToString(await openapiTS(pathToFileURL(OPENAPI_FILE))));
      writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
      symlinkSync(join(ROOT_DIR, 'node_modules'), join(dir, 'node_modules'), 'dir');
      writeFileSync(join(dir, 'client.ts'), CLIENT);
      const program = ts.createProgram([join(dir, 'client.ts')], {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2022.full.d.ts'],
        types: [],
        outDir: join(dir, 'out'),
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
      expect(program.emit().emitSkipped).toBe(false);

      const user = await createUser(h.db, { orgType: OrgType.Lab });
      const { accessToken } = await login(h, user.account);
      const client = (await import(pathToFileURL(join(dir, 'out', 'client.js')).href)) as {
        signedInAccount: (baseUrl: string, token: string) => Promise<string>;
      };
      const baseUrl = await h.listen();
      expect(await client.signedInAccount(baseUrl, accessToken)).toBe(user.account);
      await expect(client.signedInAccount(baseUrl, 'not-a-token')).rejects.toThrow('user/info answered 401');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A small client of the generated types: it must type-check strictly, and it runs against the server. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export async function signedInAccount(baseUrl: string, accessToken: string): Promise<string> {
  const client = createClient<paths>({ baseUrl });
  const { data, error } = await client.POST('/api/v2/user/info', {
    headers: { authorization: \`Bearer \${accessToken}\` },
  });
  if (error) throw new Error(\`user/info answered \${error.code}: \${error.msg}\`);
  const account: string = data.data.account;
  return account;
}

export function unknownCall(client: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error the document has no such path
  return client.POST('/api/v2/user/no-such-call');
}
`;
