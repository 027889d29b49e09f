// Batch shipping of 500 orders in one call on PostgreSQL (goal ≤ 2 s), against one SQL UPDATE of the
// same rows (baseline).
import pg from 'pg';
import { freshDatabase, startPortal } from './portal-lib.mjs';

const N = 500;

export async function ordersBench({ adminUrl, start, waitFor, stop, freePort }) {
  const database = await freshDatabase(adminUrl, 'portal_bench_orders');
  const { child, base } = await startPortal({ start, waitFor, freePort }, { DATABASE_URL: database.url });
  try {
    const call = async (path, body, token) => {
      const res = await fetch(`${base}/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      const json = await res.json();
      if (json.code !== 200) throw new Error(`${path}: ${json.msg}`);
      return json.data;
    };
    const clinic = (await call('login', { account: 'clinic', password: 'Dental#2026' })).accessToken;
    const lab = (await call('login', { account: 'lab', password: 'Dental#2026' })).accessToken;
    const db = new pg.Client({ connectionString: database.url });
    // The database is dropped when the run ends, whatever happened before.
    db.on('error', () => undefined);
    await db.connect();
    const [{ code: labCode }] = (
      await db.query(
        `SELECT o.code FROM organizations o JOIN users u ON u.organization_id = o.id WHERE u.account = 'lab'`,
      )
    ).rows;
    // The demo clinic and laboratory are partners from the start.
    const partners = await call('partner/list', { tab: 'mine', pageSize: 100 }, clinic);
    const partnerCode = partners.list.find((p) => p.organization.code === labCode).partnerCode;
    // Orders made the way clinics make them (batch send of 100 cases), then brought to 'ready' by the lab.
    const orderCodes = [];
    for (let batch = 0; batch < N / 100; batch++) {
      const caseCodes = [];
      for (let i = 0; i < 100; i++)
        caseCodes.push(
          (await call('case/create', { name: `Bench ${batch}-${i}`, patientName: 'Bench Patient' }, clinic)).caseCode,
        );
      const made = await call(
        'order/create',
        { caseCodes, partnerCode, orderType: 'restoration', workTypes: ['Crown'] },
        clinic,
      );
      orderCodes.push(...made.list.map((o) => o.orderCode));
    }
    await call('order/action', { orderCodes, action: 'accept' }, lab);
    await call('order/action', { orderCodes, action: 'ready' }, lab);
    const t0 = performance.now();
    const shipped = await call('order/action', { orderCodes, action: 'ship', trackingNumber: 'BENCH-1' }, lab);
    const apiMs = performance.now() - t0;
    const ok = shipped.results.filter((r) => r.ok).length;
    // Baseline: the same rows updated by one statement.
    const t1 = performance.now();
    await db.query(`UPDATE orders SET tracking_number = 'BENCH-2', updated_at = now() WHERE code = ANY ($1::text[])`, [
      orderCodes,
    ]);
    const sqlMs = performance.now() - t1;
    await db.end();
    return [
      [
        `batch ship ${N} orders in one call (PostgreSQL)`,
        `${(apiMs / 1000).toFixed(2)} s, ${ok}/${N} shipped`,
        `one SQL UPDATE of the rows: ${sqlMs.toFixed(0)} ms`,
        `${apiMs <= 2000 ? 'met' : 'MISSED'} (goal ≤ 2 s)`,
      ],
    ];
  } finally {
    await stop(child);
    await database.drop();
  }
}
