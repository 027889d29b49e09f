import { OWED_STATUSES, type OrderStatus, type RemakeReason } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';

export type Side = 'clinic' | 'lab';

export interface OrderRow {
  id: number;
  code: string;
  clinic_organization_id: number;
  lab_organization_id: number;
  case_id: number;
  order_type: string;
  work_types: string[];
  teeth: unknown;
  status: OrderStatus;
  processing: boolean;
  requested_delivery_date: string | null;
  ship_date: string | null;
  tracking_number: string | null;
  estimated_delivery_date: string | null;
  memo: string | null;
  share_patient_name: boolean;
  remake_of: number | null;
  remake_reason: RemakeReason | null;
  remake_note: string | null;
  created_at: Date;
  updated_at: Date;
  case_code: string;
  case_name: string;
  patient_name: string;
  clinic_code: string;
  clinic_name: string;
  lab_code: string;
  lab_name: string;
  product_code: string | null;
  product_name: string | null;
}

export interface OrderFilter {
  status?: string;
  orderType?: string;
  partnerCode?: string;
  dateFrom?: string;
  dateTo?: string;
  lateOn?: string;
  sortOrder: 'asc' | 'desc';
}

const SELECT = `SELECT o.*, to_char(o.requested_delivery_date, 'YYYY-MM-DD') AS requested_delivery_date, to_char(o.ship_date, 'YYYY-MM-DD') AS ship_date,
       to_char(o.estimated_delivery_date, 'YYYY-MM-DD') AS estimated_delivery_date, c.code AS case_code, c.name AS case_name, c.patient_name,
       co.code AS clinic_code, co.name AS clinic_name, lo.code AS lab_code, lo.name AS lab_name, lp.code AS product_code, lp.name AS product_name
  FROM orders o JOIN cases c ON c.id = o.case_id JOIN organizations co ON co.id = o.clinic_organization_id JOIN organizations lo ON lo.id = o.lab_organization_id
  LEFT JOIN lab_products lp ON lp.id = o.product_id`;

/** The column that scopes a side's orders to the caller's organization. */
export const scopeColumn = (side: Side) => (side === 'clinic' ? 'o.clinic_organization_id' : 'o.lab_organization_id');

/** The columns a list row needs (no prescription or memo), joined after the page is cut. */
const SUMMARY = `o.id, o.code, o.order_type, o.status, o.processing, o.work_types, o.share_patient_name, o.tracking_number, o.created_at, o.updated_at,
       to_char(o.requested_delivery_date, 'YYYY-MM-DD') AS requested_delivery_date, to_char(o.ship_date, 'YYYY-MM-DD') AS ship_date,
       to_char(o.estimated_delivery_date, 'YYYY-MM-DD') AS estimated_delivery_date, c.code AS case_code, c.name AS case_name, c.patient_name,
       co.code AS clinic_code, co.name AS clinic_name, lo.code AS lab_code, lo.name AS lab_name, lp.code AS product_code, lp.name AS product_name`;

/**
 * The WHERE clause of only the filters given, so each combination is its own prepared statement with a
 * reusable plan; `x IS NULL OR …` clauses would make PostgreSQL plan every call anew.
 */
function filterSql(side: Side, orgId: number, f: OrderFilter) {
  const params: unknown[] = [orgId];
  const parts = [`${scopeColumn(side)} = $1`];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    parts.push(sql.replaceAll('?', `$${params.length}`));
  };
  if (f.status) add('o.status = ?', f.status);
  if (f.orderType) add('o.order_type = ?', f.orderType);
  if (f.partnerCode) add('o.partnership_id = (SELECT id FROM partnerships WHERE code = ?)', f.partnerCode);
  if (f.dateFrom) add('o.created_at >= ?::date', f.dateFrom);
  if (f.dateTo) add("o.created_at < ?::date + interval '1 day'", f.dateTo);
  // isOrderLate in SQL: LEAST skips a missing date, and an order without either is never late.
  if (f.lateOn)
    add(
      `o.status IN (${OWED_STATUSES.map((s) => `'${s}'`).join(', ')}) AND LEAST(o.estimated_delivery_date, o.requested_delivery_date) < ?::date`,
      f.lateOn,
    );
  return { where: parts.join(' AND '), params };
}

function pageSql(side: Side, orgId: number, f: OrderFilter, limit: number, offset: number) {
  const { where, params } = filterSql(side, orgId, f);
  const dir = f.sortOrder === 'asc' ? 'ASC' : 'DESC';
  params.push(limit, offset);
  // The page is cut on the list index first; only its rows are joined to cases and organizations.
  const sql = `SELECT ${SUMMARY} FROM (SELECT * FROM orders o WHERE ${where} ORDER BY o.created_at ${dir}, o.id ${dir} LIMIT $${params.length - 1} OFFSET $${params.length}) o
      JOIN cases c ON c.id = o.case_id JOIN organizations co ON co.id = o.clinic_organization_id JOIN organizations lo ON lo.id = o.lab_organization_id
      LEFT JOIN lab_products lp ON lp.id = o.product_id
     ORDER BY o.created_at ${dir}, o.id ${dir}`;
  return { sql, params, where };
}

/** Drops a laboratory's kept scorecard and bumps its version, so a computation that began before this stays unkept. */
const TOUCH_SCORECARD = `INSERT INTO lab_scorecards AS s (lab_organization_id, version)
       VALUES ($1, 1)
       ON CONFLICT (lab_organization_id) DO UPDATE
          SET version = s.version + 1, as_of = NULL, figures = NULL`;

export const ordersRepository = {
  async page(db: Queryable, side: Side, orgId: number, f: OrderFilter, limit: number, offset: number) {
    const { sql, params } = pageSql(side, orgId, f, limit, offset);
    return db.query<OrderRow>(sql, params);
  },
  /** A page and the filtered total in one statement: one round trip, one pooled connection. */
  async list(db: Queryable, side: Side, orgId: number, f: OrderFilter, limit: number, offset: number) {
    const { sql, params, where } = pageSql(side, orgId, f, limit, offset);
    const rows = await db.query<OrderRow & { total: number; id: number | null }>(
      `SELECT t.total, p.* FROM (SELECT count(*)::int AS total FROM orders o WHERE ${where}) t LEFT JOIN LATERAL (${sql}) p ON true`,
      params,
    );
    return { total: rows[0]?.total ?? 0, rows: rows.filter((r) => r.id !== null) };
  },
  async find(db: Queryable, side: Side, orgId: number, code: string) {
    const [row] = await db.query<OrderRow>(`${SELECT} WHERE o.code = $1 AND ${scopeColumn(side)} = $2`, [code, orgId]);
    return row;
  },
  /** An order by id of which the organization is a party (either side), its case live. */
  async findForParty(db: Queryable, orgId: number, id: number) {
    const [row] = await db.query<OrderRow>(
      `${SELECT}
        WHERE o.id = $1
          AND (o.clinic_organization_id = $2 OR o.lab_organization_id = $2)
          AND c.deleted_at IS NULL`,
      [id, orgId],
    );
    return row;
  },
  async findByIds(db: Queryable, ids: number[]) {
    return db.query<OrderRow>(`${SELECT} WHERE o.id = ANY ($1::bigint[]) ORDER BY o.id`, [ids]);
  },
  /** A partnership's pending orders, locked for a change of status. */
  async lockPendingOfPartnership(db: Queryable, partnershipId: number) {
    return db.query<{ id: number; case_id: number; lab_organization_id: number; remake_of: number | null }>(
      `SELECT id, case_id, lab_organization_id, remake_of
         FROM orders
        WHERE partnership_id = $1 AND status = 'pending'
        ORDER BY id
          FOR UPDATE`,
      [partnershipId],
    );
  },
  /** The status of the order a case follows: the highest `rank` of its status, then the newest; null without orders. */
  async followedByCase(db: Queryable, caseId: number, rank: Record<OrderStatus, number>) {
    const [row] = await db.query<{ status: OrderStatus }>(
      `SELECT status
         FROM orders
        WHERE case_id = $1
        ORDER BY ($2::jsonb ->> status)::int DESC, id DESC
        LIMIT 1`,
      [caseId, JSON.stringify(rank)],
    );
    return row?.status ?? null;
  },
  async setStatus(db: Queryable, orderId: number, to: string) {
    await db.query(`UPDATE orders SET status = $2, updated_at = now() WHERE id = $1`, [orderId, to]);
  },
  async events(db: Queryable, orderId: number) {
    return db.query<{
      action: string;
      from_status: string | null;
      to_status: string;
      reason: string | null;
      actor: string | null;
      org: string | null;
      linked_order_code: string | null;
      created_at: Date;
    }>(
      `SELECT e.action, e.from_status, e.to_status, e.reason, u.display_name AS actor, og.name AS org, lk.code AS linked_order_code, e.created_at
         FROM order_events e
         LEFT JOIN users u ON u.id = e.actor_user_id
         LEFT JOIN organizations og ON og.id = e.actor_organization_id
         LEFT JOIN orders lk ON lk.id = e.linked_order_id
        WHERE e.order_id = $1
        ORDER BY e.id`,
      [orderId],
    );
  },
  event(
    db: Queryable,
    e: {
      orderId: number;
      action: string;
      from: string | null;
      to: string;
      reason: string | null;
      userId: number;
      orgId: number;
      /** The other order of a remake. */
      linkedOrderId?: number;
    },
  ) {
    return db.query(
      `INSERT INTO order_events (order_id, action, from_status, to_status, reason, actor_user_id, actor_organization_id, linked_order_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [e.orderId, e.action, e.from, e.to, e.reason, e.userId, e.orgId, e.linkedOrderId ?? null],
    );
  },
  /**
   * Counts a shipment on its laboratory's scorecard: the day (UTC), whole days since the order was made, and whether it
   * left by its due date (estimated, else requested) as it stood before shipping. Run before the shipping update.
   */
  async tallyShipment(db: Queryable, orderId: number) {
    await db.query(
      `WITH tally AS (
         INSERT INTO lab_scorecard_days AS d (lab_organization_id, day, turnaround_days, shipped, due_counted, on_time)
       SELECT o.lab_organization_id, t.today, GREATEST(t.today - (o.created_at AT TIME ZONE 'UTC')::date, 0), 1,
              (t.due IS NOT NULL)::int, COALESCE(t.today <= t.due, false)::int
         FROM orders o
        CROSS JOIN LATERAL (
              SELECT (now() AT TIME ZONE 'UTC')::date AS today,
                     COALESCE(o.estimated_delivery_date, o.requested_delivery_date) AS due
             ) t
        WHERE o.id = $1
       ON CONFLICT (lab_organization_id, day, turnaround_days) DO UPDATE
          SET shipped = d.shipped + 1,
              due_counted = d.due_counted + EXCLUDED.due_counted,
              on_time = d.on_time + EXCLUDED.on_time
       RETURNING lab_organization_id
       )
       ${TOUCH_SCORECARD.replace('$1', '(SELECT lab_organization_id FROM tally)')}`,
      [orderId],
    );
  },
  /** The laboratory's remakes changed (one asked, one withdrawn): its kept scorecard is out of date. */
  async touchScorecard(db: Queryable, labOrgId: number) {
    await db.query(TOUCH_SCORECARD, [labOrgId]);
  },
  /** The laboratory's order, locked for a change of its teeth's progress. */
  async lockForLab(db: Queryable, labOrgId: number, code: string) {
    const [row] = await db.query<OrderRow>(
      `SELECT o.*
         FROM orders o
        WHERE o.code = $1 AND o.lab_organization_id = $2
          FOR UPDATE`,
      [code, labOrgId],
    );
    return row;
  },
  async saveTeeth(db: Queryable, orderId: number, teeth: unknown[]) {
    await db.query(`UPDATE orders SET teeth = $2::jsonb, updated_at = now() WHERE id = $1`, [
      orderId,
      JSON.stringify(teeth),
    ]);
  },
  /** The clinic's order, locked for a remake. */
  async lockForClinic(db: Queryable, clinicOrgId: number, code: string) {
    const [row] = await db.query<OrderRow & { partnership_status: number }>(
      `SELECT o.*, p.status AS partnership_status
         FROM orders o
         JOIN partnerships p ON p.id = o.partnership_id
        WHERE o.code = $1 AND o.clinic_organization_id = $2
          FOR UPDATE OF o`,
      [code, clinicOrgId],
    );
    return row;
  },
  /** A remake of the order that still stands (not in one of `settled`), if any. */
  async standingRemake(db: Queryable, orderId: number, settled: readonly string[]) {
    const [row] = await db.query<{ code: string }>(
      `SELECT code
         FROM orders
        WHERE remake_of = $1 AND status <> ALL ($2::text[])
        ORDER BY id
        LIMIT 1`,
      [orderId, settled],
    );
    return row;
  },
  /** A new pending order remaking `originalId`: same clinic, laboratory, case and prescription. Null if its case is binned. */
  async insertRemake(
    db: Queryable,
    r: { code: string; originalId: number; reason: string; note: string | null; userId: number },
  ) {
    const [row] = await db.query<{ id: number; case_id: number }>(
      `INSERT INTO orders (code, clinic_organization_id, lab_organization_id, partnership_id, case_id, order_type, work_types, teeth,
                           memo, share_patient_name, created_by, remake_of, remake_reason, remake_note)
       SELECT $1, o.clinic_organization_id, o.lab_organization_id, o.partnership_id, o.case_id, o.order_type, o.work_types, o.teeth,
              o.memo, o.share_patient_name, $5, o.id, $3, $4
         FROM orders o
         JOIN cases c ON c.id = o.case_id AND c.deleted_at IS NULL
        WHERE o.id = $2
       RETURNING id, case_id`,
      [r.code, r.originalId, r.reason, r.note, r.userId],
    );
    return row;
  },
  /** The order a remake remakes, and the remakes of an order (oldest first). */
  async remakeLinks(db: Queryable, order: { id: number; remake_of: number | null }) {
    const [original, remakes] = await Promise.all([
      order.remake_of === null
        ? Promise.resolve([])
        : db.query<{ code: string }>(`SELECT code FROM orders WHERE id = $1`, [order.remake_of]),
      db.query<{ code: string; remake_reason: RemakeReason; status: OrderStatus }>(
        `SELECT code, remake_reason, status
           FROM orders
          WHERE remake_of = $1
          ORDER BY id`,
        [order.id],
      ),
    ]);
    return { originalCode: original[0]?.code ?? null, remakes };
  },
  async requiredFields(db: Queryable, labOrgId: number) {
    return db.query<{ work_type: string; fields: string[] }>(
      'SELECT work_type, fields FROM lab_required_fields WHERE lab_organization_id = $1 ORDER BY work_type',
      [labOrgId],
    );
  },
  async saveRequiredFields(db: Queryable, labOrgId: number, rules: { workType: string; fields: string[] }[]) {
    await db.query('DELETE FROM lab_required_fields WHERE lab_organization_id = $1', [labOrgId]);
    for (const r of rules) {
      await db.query('INSERT INTO lab_required_fields (lab_organization_id, work_type, fields) VALUES ($1, $2, $3)', [
        labOrgId,
        r.workType,
        [...new Set(r.fields)],
      ]);
    }
  },
  /**
   * Cases whose scanner may not send to this laboratory: limit type 1 needs the lab among the device's
   * designated labs, type 2 among those its OEM certifies; type 3 and portal-made cases go anywhere.
   */
  async deviceLimited(db: Queryable, caseIds: number[], labOrgId: number) {
    return db.query<{ name: string; limit_type: number }>(
      `SELECT c.name, d.limit_type FROM cases c JOIN devices d ON d.id = c.device_id
        WHERE c.id = ANY ($1::bigint[])
          AND ((d.limit_type = 1 AND NOT EXISTS (SELECT 1 FROM device_designated_labs x WHERE x.device_id = d.id AND x.lab_organization_id = $2))
            OR (d.limit_type = 2 AND NOT EXISTS (SELECT 1 FROM oem_certified_labs x WHERE x.oem_organization_id = d.oem_organization_id AND x.lab_organization_id = $2)))
        ORDER BY c.id`,
      [caseIds, labOrgId],
    );
  },
};
