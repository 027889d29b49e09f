import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lint } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { ROOT_DIR } from './platform/paths.js';

/** The committed document, as integrators get it (a test keeps it equal to the served one). */
const FILE = join(ROOT_DIR, 'docs', 'openapi.json');

interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
}
const doc = JSON.parse(readFileSync(FILE, 'utf8')) as { paths: Record<string, Record<string, Operation>> };
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, ...operation })),
);

/** Warnings of the recommended rules that are accepted, and why. */
const ACCEPTED_WARNINGS: Record<string, { why: string; where?: string[] }> = {
  'info-license': { why: 'the API is not published under a licence' },
  'operation-4xx-response': {
    why: 'the health checks take no input and need no token: they answer 200, 500 or 503',
    where: ['monitor', 'ready', 'live'].map((probe) => `#/paths/~1api~1v2~1common~1${probe}/get/responses`),
  },
};

describe('the committed OpenAPI document', () => {
  it('is valid for swagger-parser', async () => {
    await expect(SwaggerParser.validate(FILE)).resolves.toBeTruthy();
  });

  it("passes Redocly's recommended rules with no errors and only the accepted warnings", async () => {
    const problems = await lint({ ref: FILE, config: await createConfig({ extends: ['recommended'] }) });
    const show = (p: (typeof problems)[number]) =>
      `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`;
    expect(problems.filter((p) => p.severity === 'error').map(show)).toEqual([]);
    const unexpected = problems.filter((p) => {
      const accepted = ACCEPTED_WARNINGS[p.ruleId];
      return !accepted || (accepted.where && !accepted.where.includes(p.location[0]?.pointer ?? ''));
    });
    expect(unexpected.map(show)).toEqual([]);
  });

  it('gives every operation a unique operationId a client generator can use as a name', () => {
    const ids = operations.map((o) => o.operationId);
    expect(operations.filter((o) => !/^[a-z][A-Za-z0-9]*$/.test(o.operationId ?? '')).map((o) => o.name)).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(operations.find((o) => o.name === 'POST /api/v2/user/refresh_token')?.operationId).toBe('userRefreshToken');
    expect(operations.find((o) => o.name === 'POST /api/v2/order/save_attachments')?.operationId).toBe(
      'orderSaveAttachments',
    );
  });

  it('declares the security of every operation and documents a client error for each but the health check', () => {
    expect(operations.filter((o) => !Array.isArray(o.security)).map((o) => o.name)).toEqual([]);
    const withoutClientError = operations.filter((o) => !Object.keys(o.responses).some((s) => /^4\d\d$/.test(s)));
    expect(withoutClientError.map((o) => o.name)).toEqual(
      ['monitor', 'ready', 'live'].map((probe) => `GET /api/v2/common/${probe}`),
    );
  });
});
