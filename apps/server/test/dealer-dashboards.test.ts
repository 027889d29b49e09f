import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { seedDemo } from '../src/seed.js';
import { createHarness, login, PASSWORD, snapshot, type Harness } from './harness.js';
import { side, type Side } from './fixtures.js';

let h: Harness;
let oem: Side;
let dealer: Side;
let otherOem: Side;
let otherDealer: Side;
let clinicA: Side;
let clinicB: Side;

/** A scanner the OEM made, straight into the table (the catalogue import has tests of its own). */
async function scanner(
  serial: string,
  d: {
    dealer?: number;
    clinic?: number;
    status?: string;
    limitType?: number;
    warranty?: string;
    battery?: number;
    activated?: string;
    created?: string;
  },
) {
  await h.db.query(
    `INSERT INTO devices (serial_number, model, oem_organization_id, dealer_organization_id, clinic_organization_id,
       status, limit_type, warranty_date, battery_health, activated_at, created_at, activation_code_hash)
     VALUES ($1, 'IOS-5', $2, $3, $4, $5, $6, ${d.warranty ?? 'NULL'}, $7, ${d.activated ?? 'NULL'}, ${d.created ?? 'now()'}, 'x')`,
    [
      serial,
      oem.organizationId,
      d.dealer ?? null,
      d.clinic ?? null,
      d.status ?? 'InActiveted',
      d.limitType ?? 3,
      d.battery ?? null,
    ],
  );
}

const dashboard = (s: Side, body: Record<string, unknown> = {}) =>
  h.call('dashboard/devices', { token: s.token, body });
const status = (data: { byStatus: { status: string; count: number }[] }, st: string) =>
  data.byStatus.find((r) => r.status === st)!.count;

beforeAll(async () => {
  h = await createHarness();
  oem = await side(h, OrgType.Oem);
  dealer = await side(h, OrgType.Dealer);
  otherOem = await side(h, OrgType.Oem);
  otherDealer = await side(h, OrgType.Dealer);
  clinicA = await side(h);
  clinicB = await side(h);
  const dl = dealer.organizationId;
  await scanner('DD-1', {
    dealer: dl,
    clinic: clinicA.organizationId,
    status: 'Activated',
    limitType: 1,
    warranty: 'current_date + 30',
    battery: 72,
    activated: 'now()',
  });
  await scanner('DD-2', {
    dealer: dl,
    clinic: clinicA.organizationId,
    status: 'DataTransferred',
    limitType: 2,
    warranty: 'current_date - 1',
    battery: 95,
    activated: "now() - interval '40 days'",
  });
  await scanner('DD-3', {
    dealer: dl,
    clinic: clinicB.organizationId,
    status: 'Activated',
    warranty: 'current_date + 200',
    battery: 79,
    activated: 'now()',
  });
  await scanner('DD-4', { dealer: dl, warranty: 'current_date + 90' });
  // The OEM's own stock, not yet with a dealer; imported over a month ago.
  await scanner('DD-5', { status: 'Disabled', created: "now() - interval '40 days'" });
});
afterAll(() => h.close());

describe("dealer's and OEM's dashboards", () => {
  it("counts a dealer's scanners: statuses, limit types, activations, warranties, batteries, clinics", async () => {
    const res = await dashboard(dealer, { period: '90d' });
    expect(res.code).toBe(200);
    const d = res.data;
    expect(d.total).toBe(4);
    expect(status(d, 'Activated')).toBe(2);
    expect(status(d, 'DataTransferred')).toBe(1);
    expect(status(d, 'InActiveted')).toBe(1);
    expect(status(d, 'Disabled')).toBe(0);
    expect(d.byStatus).toHaveLength(6);
    expect(d.byLimitType).toEqual([
      { limitType: 1, count: 1 },
      { limitType: 2, count: 1 },
      { limitType: 3, count: 2 },
    ]);
    expect(d.activatedThisMonth).toBe(2);
    // Ending within 90 days, today's +90 included; an expired one and one in 200 days are not.
    expect(d.warrantyEndingSoon).toBe(2);
    expect(d.lowBattery).toBe(2);
    expect(d.clinicsServed).toBe(2);
    expect(d.importedThisMonth).toBeNull();
    // 90 days of points: today's two activations and the one 40 days ago.
    expect(d.activations.points).toHaveLength(90);
    expect(d.activations.total).toBe(3);
    expect(d.activations.points.at(-1).count).toBe(2);
    const month = await dashboard(dealer, { period: '30d' });
    expect(month.data.activations.points).toHaveLength(30);
    expect(month.data.activations.total).toBe(2);
    // The period defaults to 30 days, as on the clinic's dashboard.
    expect((await dashboard(dealer)).data.activations.points).toHaveLength(30);
  });

  it("counts an OEM's scanners, its dealers' included, and this month's imports", async () => {
    const d = (await dashboard(oem, { period: '7d' })).data;
    expect(d.total).toBe(5);
    expect(status(d, 'Disabled')).toBe(1);
    expect(d.importedThisMonth).toBe(4);
    expect(d.clinicsServed).toBeNull();
    expect(d.activations.points).toHaveLength(7);
    expect(d.activations.total).toBe(2);
  });

  it('opens each figure as a filter of the scanner list that lists exactly the scanners it counts', async () => {
    const list = async (s: Side, filter: Record<string, unknown>) => {
      const res = await h.call('equipment/listEquipment', { token: s.token, body: { pageSize: 100, ...filter } });
      expect(res.code).toBe(200);
      expect(res.data.list).toHaveLength(res.data.total);
      return res.data as { total: number; list: Array<{ status: string; limitType: number }> };
    };
    for (const s of [dealer, oem]) {
      const d = (await dashboard(s)).data;
      expect((await list(s, {})).total).toBe(d.total);
      for (const { status: st, count } of d.byStatus) {
        const rows = await list(s, { status: st });
        expect(rows.total, st).toBe(count);
        expect(rows.list.every((r) => r.status === st)).toBe(true);
      }
      for (const { limitType, count } of d.byLimitType) {
        const rows = await list(s, { limitType });
        expect(rows.total).toBe(count);
        expect(rows.list.every((r) => r.limitType === limitType)).toBe(true);
      }
      expect((await list(s, { activatedThisMonth: true })).total).toBe(d.activatedThisMonth);
      expect((await list(s, { warrantyEnding: true })).total).toBe(d.warrantyEndingSoon);
      expect((await list(s, { lowBattery: true })).total).toBe(d.lowBattery);
      // Filters combine.
      expect((await list(s, { status: 'Activated', lowBattery: true })).total).toBeLessThanOrEqual(d.lowBattery);
    }
    expect((await list(oem, { addedThisMonth: true })).total).toBe(4);
    // Another dealer's filtered list holds none of them.
    expect((await list(otherDealer, { status: 'Activated' })).total).toBe(0);
    // A filter the list does not know is refused, naming the field, and changes nothing.
    const before = await snapshot(h.db);
    for (const [field, value] of [
      ['status', 'Lost'],
      ['limitType', 4],
      ['lowBattery', 'sometimes'],
    ] as const) {
      const res = await h.call('equipment/listEquipment', { token: dealer.token, body: { [field]: value } });
      expect(res.status).toBe(400);
      expect(res.msg).toContain(field);
    }
    expect(await snapshot(h.db)).toBe(before);
  });

  it('shows another dealer or OEM none of them', async () => {
    for (const s of [otherDealer, otherOem]) {
      const d = (await dashboard(s, { period: '365d' })).data;
      expect(d.total).toBe(0);
      expect(d.byStatus.every((r: { count: number }) => r.count === 0)).toBe(true);
      expect([d.activatedThisMonth, d.warrantyEndingSoon, d.lowBattery, d.activations.total]).toEqual([0, 0, 0, 0]);
      expect(d.clinicsServed ?? d.importedThisMonth).toBe(0);
    }
    // A clinic counts only the scanners bound to it.
    expect((await dashboard(clinicB)).data.total).toBe(1);
  });

  it('gives the demo dealer and OEM scanners, so their dashboards show figures', async () => {
    const demo = await createHarness();
    try {
      await seedDemo(demo.db, PASSWORD, 'eu');
      const figures = async (account: string) =>
        (
          await demo.call('dashboard/devices', {
            token: (await login(demo, account)).accessToken,
            body: { period: '90d' },
          })
        ).data;
      const dl = await figures('dealer');
      expect(dl.total).toBe(10);
      expect(dl.clinicsServed).toBe(1);
      expect(dl.activations.total).toBe(6);
      expect(dl.lowBattery).toBeGreaterThan(0);
      expect(dl.warrantyEndingSoon).toBeGreaterThan(0);
      expect((await figures('oem')).total).toBe(12);
    } finally {
      await demo.close();
    }
  });

  it('refuses a bad period, naming the field, and changes nothing', async () => {
    const before = await snapshot(h.db);
    const res = await dashboard(dealer, { period: 'week' });
    expect(res.status).toBe(400);
    expect(res.msg).toContain('period');
    expect((await h.call('dashboard/devices', { body: {} })).status).toBe(401);
    expect(await snapshot(h.db)).toBe(before);
  });
});
