import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, OrgType } from '@portal/contracts';
import { deleteOldIdempotencyKeys } from '../src/platform/idempotency.js';
import { count, side, type Side } from './fixtures.js';
import { createHarness, type Harness } from './harness.js';

/**
 * Idempotency keys (docs/api.md, "Retrying a write"): a write sent again with its key is answered with the first
 * answer and applied once; the key is the caller's, bound to one request, and freed when the first attempt failed.
 */
let h: Harness;
let clinic: Side;
let other: Side;

beforeAll(async () => {
  h = await createHarness();
  clinic = await side(h, OrgType.Clinic);
  other = await side(h, OrgType.Clinic);
});
afterAll(() => h?.close());

const create = (who: Side, key: string | undefined, name: string) =>
  h.call('case/create', {
    token: who.token,
    body: { name, patientName: 'Nora Berg' },
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
const cases = (name: string) => count(h, 'cases WHERE name = $1', [name]);

describe('idempotency keys', () => {
  it('apply a repeated write once and answer the repeat with the first answer', async () => {
    const first = await create(clinic, 'key-0001-repeat', 'Keyed once');
    expect(first.code).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await create(clinic, 'key-0001-repeat', 'Keyed once');
    expect(again.code).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.data.caseCode).toBe(first.data.caseCode);
    expect(await cases('Keyed once')).toBe(1);
    // Without a key, each call is a call.
    await create(clinic, undefined, 'Unkeyed');
    await create(clinic, undefined, 'Unkeyed');
    expect(await cases('Unkeyed')).toBe(2);
  });

  it('refuse the same key with another request, and keep keys apart per caller', async () => {
    await create(clinic, 'key-0002-other', 'First body');
    const reused = await create(clinic, 'key-0002-other', 'Second body');
    expect(reused).toMatchObject({ status: 422, code: ERRORS.IDEMPOTENCY_KEY_REUSED.code });
    expect(await cases('Second body')).toBe(0);
    // Another user's identical key is theirs.
    const theirs = await create(other, 'key-0002-other', 'First body');
    expect(theirs.code).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await cases('First body')).toBe(2);
  });

  it('run a key once when two attempts arrive together', async () => {
    const answers = await Promise.all([1, 2, 3].map(() => create(clinic, 'key-0003-race', 'Raced')));
    expect(await cases('Raced')).toBe(1);
    const made = answers.filter((a) => a.code === 200);
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(new Set(made.map((a) => a.data.caseCode)).size).toBe(1);
    for (const a of answers.filter((x) => x.code !== 200))
      expect(a).toMatchObject({ status: 409, code: ERRORS.IDEMPOTENCY_PENDING.code, data: { outcomeUnknown: false } });
  });

  it('say the outcome is unknown when the attempt that claimed the key never finished', async () => {
    await h.db.query(
      `INSERT INTO idempotency_keys (caller, key, request_hash, created_at)
       SELECT 'u' || $1, 'key-0004-dead', request_hash, now() - interval '5 minutes'
         FROM (SELECT 'x' AS request_hash) r`,
      [clinic.userId],
    );
    const res = await create(clinic, 'key-0004-dead', 'Dead process');
    // Its hash is another request's: the key is refused either way, and nothing runs.
    expect(res.code).toBe(ERRORS.IDEMPOTENCY_KEY_REUSED.code);
    await h.db.query(`DELETE FROM idempotency_keys WHERE key = 'key-0004-dead'`);
    // The same request claimed by a process that died: its outcome is unknown, so it is not run again.
    const claimed = await create(clinic, 'key-0004-dead', 'Dead process');
    expect(claimed.code).toBe(200);
    await h.db.query(
      `UPDATE idempotency_keys SET status = NULL, body = NULL, created_at = now() - interval '5 minutes'
        WHERE key = 'key-0004-dead'`,
    );
    const unknown = await create(clinic, 'key-0004-dead', 'Dead process');
    expect(unknown).toMatchObject({
      status: 409,
      code: ERRORS.IDEMPOTENCY_PENDING.code,
      data: { outcomeUnknown: true },
    });
    expect(await cases('Dead process')).toBe(1);
  });

  it('free the key when the attempt failed with a server error, so the retry runs', async () => {
    const made = await create(clinic, undefined, 'Read me');
    await h.db.query(`ALTER TABLE access_log ADD CONSTRAINT idem_test_refuse CHECK (action <> 'case.view') NOT VALID`);
    const read = () =>
      h.call('case/detail', {
        token: clinic.token,
        body: { caseCode: made.data.caseCode },
        headers: { 'idempotency-key': 'key-0005-retry' },
      });
    try {
      expect((await read()).status).toBe(500);
      expect(await count(h, `idempotency_keys WHERE key = 'key-0005-retry'`)).toBe(0);
    } finally {
      await h.db.query('ALTER TABLE access_log DROP CONSTRAINT idem_test_refuse');
    }
    expect((await read()).code).toBe(200);
  });

  it('refuse a malformed key naming the header, and change nothing', async () => {
    for (const key of ['short', 'x'.repeat(201), 'with space inside'])
      expect(await create(clinic, key, 'Bad key')).toMatchObject({ status: 400, code: ERRORS.PARAM_INVALID.code });
    expect(await cases('Bad key')).toBe(0);
    const res = await create(clinic, 'bad', 'Bad key');
    expect(res.msg).toContain('Idempotency-Key');
  });

  it('are forgotten after a day', async () => {
    await create(clinic, 'key-0006-old', 'Old key');
    await h.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'key-0006-old'`);
    expect(await deleteOldIdempotencyKeys(h.db)).toBe(1);
    expect((await create(clinic, 'key-0006-old', 'Old key')).headers['idempotent-replayed']).toBeUndefined();
    expect(await cases('Old key')).toBe(2);
  });
});
