// Batch shipping of 500 orders in one call on PostgreSQL (goal ≤ 2 s), against one SQL UPDATE of the
// same rows (baseline).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const N = 500;

export async function ordersBench({ adminUrl, start, waitFor, stop, freePort }) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS portal_bench_orders WITH (FORCE)');
  await admin.query('CREATE DATABASE portal_bench_orders');
  const url = new URL(adminUrl);
  url.pathname = '/portal_bench_orders';
  const port = await freePort();
  const child = start(['apps/server/dist/main.js'], {
    DATABASE_URL: url.toString(),
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'true',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-bench-')),
  });
  const base = `http://127.0.0.1:${port}/api/v2`;
  try {
    await waitFor(`${base}/common/monitor`, child);
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
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    const [{ code: labCode }] = (
      await db.query(
        `SELECT o.code FROM organizations o JOIN users u ON u.organization_id = o.id WHERE u.account = 'lab'`,
      )
    ).rows;
    const partnerCode = (await call('partner/apply', { organizationCode: labCode }, clinic)).partnerCode;
    await call('partner/accept', { partnerCode }, lab);
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
    await admin.query('DROP DATABASE IF EXISTS portal_bench_orders WITH (FORCE)');
    await admin.end();
  }
}
