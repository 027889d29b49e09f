import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import {
  actor,
  caseOf,
  readerFor,
  newCase,
  partnership,
  refused,
  send,
  serviceWorld,
  type ServiceWorld,
} from './kit.js';

/**
 * CasesService's recycle bin: a case whose order still runs stays where it is (the laboratory works from its files);
 * binned cases come back until they are purged; a purged case that orders name stays as a tombstone without files.
 */
let w: ServiceWorld;
let clinic: Awaited<ReturnType<typeof actor>>;
let lab: Awaited<ReturnType<typeof actor>>;
let partnerCode: string;

beforeAll(async () => {
  w = await serviceWorld();
  clinic = await actor(w.db, OrgType.Clinic);
  lab = await actor(w.db, OrgType.Lab);
  partnerCode = await partnership(w, clinic, lab);
});
afterAll(() => w.close());

const binned = async () => (await w.cases.recycleBin(clinic.organizationId, 1, 100)).list.map((c) => c.caseCode);

describe('the recycle bin', () => {
  it('refuses all the cases when one has a running order, naming the case and its orders', async () => {
    const free = await newCase(w, clinic, 'Free case');
    const busy = await newCase(w, clinic, 'Busy case');
    const [orderCode] = await send(w, clinic, partnerCode, [busy.code]);
    const err = await refused(w.cases.moveToBin(clinic.organizationId, [free.code, busy.code]), 'CASE_HAS_OPEN_ORDER', {
      caseCode: busy.code,
      orders: [orderCode],
    });
    expect(err.params).toMatchObject({ case: 'Busy case', orders: orderCode });
    expect(await binned()).not.toContain(free.code);
    // Once the order is settled (here rejected), the case may go.
    await w.orders.act(lab, { orderCodes: [orderCode!], action: 'reject', reason: 'No capacity' });
    expect(await w.cases.moveToBin(clinic.organizationId, [free.code, busy.code])).toBe(2);
    expect(await binned()).toEqual(expect.arrayContaining([free.code, busy.code]));
    await refused(caseOf(w, clinic.organizationId, busy.code), 'NOT_FOUND');
  });

  it('takes only live cases of the caller, and gives them back', async () => {
    const other = await actor(w.db, OrgType.Clinic);
    const theirs = await newCase(w, other);
    await refused(w.cases.moveToBin(clinic.organizationId, [theirs.code]), 'NOT_FOUND');
    expect((await caseOf(w, other.organizationId, theirs.code)).caseCode).toBe(theirs.code);
    const c = await newCase(w, clinic);
    await w.cases.moveToBin(clinic.organizationId, [c.code]);
    await refused(w.cases.moveToBin(clinic.organizationId, [c.code]), 'NOT_FOUND');
    await refused(w.cases.restore(other.organizationId, [c.code]), 'NOT_FOUND');
    expect(await w.cases.restore(clinic.organizationId, [c.code])).toBe(1);
    expect((await caseOf(w, clinic.organizationId, c.code)).status).toBe('registered');
  });

  it('purges a binned case for good, keeping one that orders name as a tombstone the laboratory still reads', async () => {
    const plain = await newCase(w, clinic, 'Plain');
    const sent = await newCase(w, clinic, 'Sent once');
    const [orderCode] = await send(w, clinic, partnerCode, [sent.code]);
    await w.orders.act(clinic, { orderCodes: [orderCode!], action: 'cancel' });
    await w.cases.moveToBin(clinic.organizationId, [plain.code, sent.code]);
    expect(await w.cases.purge({ orgId: clinic.organizationId, codes: [plain.code, sent.code] })).toEqual({
      purged: 2,
      failed: 0,
    });
    expect(await binned()).not.toContain(plain.code);
    expect(await binned()).not.toContain(sent.code);
    await refused(w.cases.restore(clinic.organizationId, [plain.code, sent.code]), 'NOT_FOUND');
    const order = await w.orders.detail(lab, orderCode!, readerFor(lab));
    expect(order).toMatchObject({ caseCode: sent.code, status: 'canceled', files: [] });
    const [row] = await w.db.query<{ n: number }>('SELECT count(*)::int AS n FROM cases WHERE code = ANY ($1)', [
      [plain.code, sent.code],
    ]);
    expect(row!.n).toBe(1);
  });

  it('purges nothing that is not in the bin', async () => {
    const live = await newCase(w, clinic);
    expect(await w.cases.purge({ orgId: clinic.organizationId, codes: [live.code] })).toEqual({ purged: 0, failed: 0 });
    expect((await caseOf(w, clinic.organizationId, live.code)).caseCode).toBe(live.code);
  });
});
