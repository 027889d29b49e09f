import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOperations, type Operation } from './api-operations.js';
import { createHarness, type Harness } from './harness.js';
import { ISOLATION_MATRIX, type MatrixRequest } from './isolation-matrix.js';
import { buildWorld, type Kind, type Org, type World } from './world.js';

/**
 * Every paged call of the API document (a JSON body with `pageNum` and `pageSize`), walked a row at a time, then
 * asked for its last page and the page after it: no row comes twice, the last page holds a row, the one after is
 * empty, and both tell the whole total. A pager sent back
 * from an emptied last page relies on that total to find the page to go back to; a total of 0 there would show an
 * empty list where there are rows. A paged call the world gives nothing to page fails the test too: it would
 * otherwise pass without being asked.
 */
let h: Harness;
let w: World;
let paged: Operation[];

beforeAll(async () => {
  h = await createHarness();
  w = await buildWorld(h);
  // What the world does not hold already: a case in the recycle bin, erasures and entries of the update log.
  const clinic = w.pairs[0].clinic;
  const made = await h.call('case/create', {
    token: clinic.token,
    body: { name: 'Recycled', patientName: 'Page Test' },
  });
  await h.call('case/delete', { token: clinic.token, body: { caseCodes: [made.data.caseCode] } });
  // Two erasures of the clinic's patients, for their certificates' list.
  for (const name of ['Erased one', 'Erased two']) {
    const erased = await h.call('case/create', { token: clinic.token, body: { name, patientName: 'Page Erased' } });
    await h.call('case/erase', {
      token: clinic.token,
      body: { caseCodes: [erased.data.caseCode], reason: 'Paging request' },
    });
  }
  // Two minutes of an app's calls for the clinic's member (the log is written by the server as apps call).
  const app = await h.call('app/create', {
    token: w.inner.token,
    body: {
      name: 'Paged app',
      redirectUris: ['https://paged.example/cb'],
      scopes: ['openid'],
      contactEmail: 'p@example.test',
    },
  });
  await h.db.query(
    `INSERT INTO app_call_minutes (organization_id, minute, app_id, user_id, call, calls)
     SELECT $1, date_trunc('minute', now()) - make_interval(mins => m), a.id, $2, 'case/list', 3
       FROM oauth_apps a, generate_series(0, 1) AS m WHERE a.code = $3`,
    [clinic.organizationId, clinic.userId, app.data.appCode],
  );
  for (const version of ['1.0.0', '1.1.0'])
    await h.call('software/update_log/save_or_update', {
      token: w.inner.token,
      body: { version, releaseDate: '2026-10-01', texts: { en: { title: `Version ${version}`, markdown: 'Notes.' } } },
    });
  paged = (await readOperations(h)).filter((op) => {
    const props = op.body?.contentType === 'application/json' ? op.body.schema.properties : undefined;
    return Boolean(props?.pageNum && props.pageSize);
  });
}, 120_000);
afterAll(() => h?.close());

const orgOf = (kind: Kind): Org => (kind === 'inner' ? w.inner : w.pairs[0][kind]);

/**
 * Who asks, and with what: the resource's owner and request where the call names one, else its first caller (or
 * nobody signed in, for a public call).
 */
async function askerOf(op: Operation): Promise<{ org?: Org; request: MatrixRequest } | string> {
  const entry = ISOLATION_MATRIX[op.operationId];
  if (!entry) return 'not in the isolation matrix';
  if (entry.resource) {
    const r = await entry.resource(w);
    const owner = r.owner === false ? undefined : (r.owner ?? r.owners[0]);
    return owner ? { org: owner, request: r.request } : 'no owner may call it';
  }
  const request = entry.probe?.(w) ?? { path: op.path, body: {} };
  if (entry.callers === 'public') return { request };
  if (entry.callers === 'device') return 'called by a scanner';
  return { org: orgOf(entry.callers[0]!), request };
}

describe('every paged call', () => {
  it('tells its whole total on its last page and on the page after it', async () => {
    const unasked: string[] = [];
    const checked: string[] = [];
    for (const op of paged) {
      const asker = await askerOf(op);
      if (typeof asker === 'string') {
        unasked.push(`${op.operationId}: ${asker}`);
        continue;
      }
      const page = async (pageNum: number) => {
        const body = { ...(asker.request.body as Record<string, unknown>), pageNum, pageSize: 1 };
        const res = await h.call(asker.request.path, { token: asker.org?.token, body });
        expect(res.code, `${op.operationId} as ${asker.org?.label ?? 'anyone'}: ${res.msg}`).toBe(200);
        return res.data as { total: number; list: unknown[] };
      };
      const { total } = await page(1);
      if (!(total >= 1)) {
        unasked.push(`${op.operationId}: nothing to page for ${asker.org?.label ?? 'anyone'}`);
        continue;
      }
      // Pages of one row, walked from the first: each row once (a sort without a unique last key repeats or skips).
      const walked = new Set<string>();
      for (let n = 1; n <= Math.min(total, 12); n++) walked.add(JSON.stringify((await page(n)).list));
      expect(walked.size, `${op.operationId}: pages that repeat a row`).toBe(Math.min(total, 12));
      const last = await page(total);
      const after = await page(total + 1);
      expect([last.total, last.list.length], `${op.operationId}, its last page`).toEqual([total, 1]);
      expect([after.total, after.list], `${op.operationId}, the page after its last`).toEqual([total, []]);
      checked.push(`${op.operationId} (${total})`);
    }
    expect(unasked).toEqual([]);
    // The document's paged calls, found and asked: the gate cannot pass by finding none.
    expect(checked.length).toBeGreaterThanOrEqual(15);
    console.log(`paged calls asked past their last page: ${checked.length} (${checked.join(', ')})`);
  });
});
