import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, type Harness } from './harness.js';
import { count, newCase, orderAction, partner, sendToLab, side, type Side } from './fixtures.js';
import { binaryStl, tusUpload } from './uploads.js';

/**
 * What happens to cases and orders when cases leave: the recycle bin, the purge (by hand and by the retention job),
 * and the end of a partnership.
 */
let h: Harness;
let base: string;
let clinic: Side;
let lab: Side;
let partnerCode: string;
beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
  partnerCode = await partner(h, clinic, lab);
});
afterAll(() => h.close());

const bin = (caseCodes: string[]) => h.call('case/delete', { token: clinic.token, body: { caseCodes } });
const purge = (caseCodes: string[]) => h.call('case/purge', { token: clinic.token, body: { caseCodes } });
const storedKeys = async (caseCode: string) =>
  (
    await h.db.query<{ storage_key: string }>(
      'SELECT f.storage_key FROM files f JOIN cases c ON c.id = f.case_id WHERE c.code = $1',
      [caseCode],
    )
  ).map((r) => r.storage_key);
const used = async (orgId: number) =>
  Number(
    (
      await h.db.query<{ used: string }>('SELECT used_bytes AS used FROM storage_accounts WHERE organization_id = $1', [
        orgId,
      ])
    )[0]?.used ?? 0,
  );

describe('a case with an order', () => {
  it('stays out of the bin while its order runs, then is purged to a tombstone the order still reads', async () => {
    const caseCode = await newCase(h, clinic, 'Bridge 14-16', 'Nora Sand');
    await tusUpload(base, clinic.token, binaryStl(2000), { caseCode, filename: 'upper.stl' });
    const [orderCode] = await sendToLab(h, clinic, partnerCode, [caseCode]);
    await orderAction(h, lab, [orderCode!], 'accept');

    // The laboratory works from the files: the case cannot be binned mid-production.
    const refused = await bin([caseCode]);
    expect([refused.status, refused.code]).toEqual([409, 2042]);
    expect(refused.data).toEqual({ caseCode, orders: [orderCode] });
    expect(refused.msg).toContain(orderCode);
    expect((await h.call('case/detail', { token: clinic.token, body: { caseCode } })).code).toBe(200);

    await orderAction(h, lab, [orderCode!], 'ready');
    await orderAction(h, lab, [orderCode!], 'ship', { trackingNumber: 'TRACK-1' });
    await orderAction(h, clinic, [orderCode!], 'complete');
    const keys = await storedKeys(caseCode);
    expect(keys).toHaveLength(1);
    const usedBefore = await used(clinic.organizationId);
    expect((await bin([caseCode])).code).toBe(200);
    const purged = await purge([caseCode]);
    expect([purged.code, purged.data.count]).toEqual([200, 1]);

    // Gone for the clinic, its bytes freed; the order stays readable on both sides.
    expect((await h.call('case/recycleBin', { token: clinic.token, body: {} })).data.list).toEqual([]);
    expect((await h.call('case/restore', { token: clinic.token, body: { caseCodes: [caseCode] } })).code).toBe(404);
    expect((await purge([caseCode])).code).toBe(404);
    const root = h.config.storage.kind === 'local' ? h.config.storage.root : '';
    expect(existsSync(join(root, keys[0]!))).toBe(false);
    expect(await used(clinic.organizationId)).toBe(usedBefore - binaryStl(2000).length);
    for (const s of [clinic, lab]) {
      const detail = await h.call('order/detail', { token: s.token, body: { orderCode } });
      expect(detail.code).toBe(200);
      expect(detail.data).toMatchObject({ caseName: 'Bridge 14-16', status: 'completed', files: [] });
    }
  });

  it('a pending order keeps its case out of the bin until the clinic cancels it', async () => {
    const caseCode = await newCase(h, clinic);
    const [orderCode] = await sendToLab(h, clinic, partnerCode, [caseCode]);
    const other = await newCase(h, clinic);
    // All or none: a batch with one case that cannot go leaves the other where it is too.
    expect((await bin([other, caseCode])).code).toBe(2042);
    expect((await h.call('case/detail', { token: clinic.token, body: { caseCode: other } })).code).toBe(200);
    await orderAction(h, clinic, [orderCode!], 'cancel');
    expect((await bin([other, caseCode])).data.count).toBe(2);
  });
});

describe('the retention job', () => {
  it('purges each expired case on its own: one that fails holds back nobody, and the failure shows', async () => {
    const stranger = await side(h, OrgType.Clinic);
    const strangerPartner = await partner(h, stranger, lab);
    const ordered = await newCase(h, stranger);
    const [order] = await sendToLab(h, stranger, strangerPartner, [ordered]);
    await orderAction(h, stranger, [order!], 'cancel');
    const plain = await newCase(h, clinic);
    const stuck = await newCase(h, clinic);
    for (const [s, c] of [
      [stranger, ordered],
      [clinic, plain],
      [clinic, stuck],
    ] as const) {
      expect((await h.call('case/delete', { token: s.token, body: { caseCodes: [c] } })).code).toBe(200);
    }
    await h.db.query(`UPDATE cases SET deleted_at = now() - interval '400 days' WHERE code = ANY ($1::text[])`, [
      [ordered, plain, stuck],
    ]);
    // One case that cannot be deleted, whatever the reason.
    await h.db.query(`
      CREATE FUNCTION refuse_case_delete() RETURNS trigger AS $$
      BEGIN
        IF OLD.code = '${stuck}' THEN RAISE EXCEPTION 'cannot delete this one'; END IF;
        RETURN OLD;
      END;
      $$ LANGUAGE plpgsql`);
    await h.db.query(
      `CREATE TRIGGER refuse_case_delete BEFORE DELETE ON cases FOR EACH ROW EXECUTE FUNCTION refuse_case_delete()`,
    );

    await expect(h.app.housekeeping.run('recycleBinPurge')).rejects.toThrow('1 expired cases could not be purged');
    expect(await count(h, 'cases WHERE code = $1', [plain])).toBe(0);
    expect(await count(h, 'cases WHERE code = $1 AND purged_at IS NOT NULL', [ordered])).toBe(1);
    expect(await count(h, 'cases WHERE code = $1 AND purged_at IS NULL', [stuck])).toBe(1);
    const monitor = await h.call('common/monitor', { method: 'GET' });
    expect(monitor.data).toMatchObject({ status: 'degraded', failingTasks: ['recycleBinPurge'] });
    const [run] = await h.db.query<{ last_ok: boolean; consecutive_failures: number; last_error: string }>(
      `SELECT last_ok, consecutive_failures, last_error FROM job_runs WHERE name = 'recycleBinPurge'`,
    );
    expect(run).toMatchObject({ last_ok: false, consecutive_failures: 1 });

    await h.db.query('DROP TRIGGER refuse_case_delete ON cases');
    expect(await h.app.housekeeping.run('recycleBinPurge')).toEqual({ purged: 1, failed: 0 });
    expect((await h.call('common/monitor', { method: 'GET' })).data).toMatchObject({ status: 'ok', failingTasks: [] });
    // The stranger's laboratory still reads the canceled order of the purged case.
    expect((await h.call('order/detail', { token: lab.token, body: { orderCode: order } })).code).toBe(200);
  });
});

describe('the end of a partnership', () => {
  it('cancels the orders the laboratory has not taken and lets the running ones finish', async () => {
    const c = await side(h, OrgType.Clinic);
    const code = await partner(h, c, lab);
    const [pending, running] = await sendToLab(h, c, code, [await newCase(h, c), await newCase(h, c)]);
    await orderAction(h, lab, [running!], 'accept');
    const ended = await h.call('partner/terminate', { token: lab.token, body: { partnerCode: code } });
    expect(ended.code).toBe(200);

    const pendingNow = await h.call('order/detail', { token: c.token, body: { orderCode: pending } });
    expect(pendingNow.data.status).toBe('canceled');
    expect(pendingNow.data.events.at(-1)).toMatchObject({
      action: 'partnershipEnded',
      from: 'pending',
      to: 'canceled',
    });
    const caseStatus = await h.call('case/detail', { token: c.token, body: { caseCode: pendingNow.data.caseCode } });
    expect(caseStatus.data.status).toBe('notSent');
    expect((await orderAction(h, lab, [pending!], 'accept')).data.results[0].code).toBe(2035);
    // The clinic hears of it.
    const notices = await h.call('msg/listSysMsg', { token: c.token, body: {} });
    expect(notices.data.list[0].title).toContain('partnership');

    // Work in progress goes on to delivery.
    expect((await orderAction(h, lab, [running!], 'ready')).data.results[0].ok).toBe(true);
    expect((await orderAction(h, lab, [running!], 'ship', { trackingNumber: 'T-9' })).data.results[0].ok).toBe(true);
    expect((await orderAction(h, c, [running!], 'complete')).data.results[0].ok).toBe(true);
    // No new orders.
    expect(
      (
        await h.call('order/create', {
          token: c.token,
          body: { caseCodes: [await newCase(h, c)], partnerCode: code, orderType: 'restoration', workTypes: ['Crown'] },
        })
      ).code,
    ).toBe(2036);
  });
});
