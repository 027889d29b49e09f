import {
  OWED_STATUSES,
  PartnerStatus,
  type OrderStatus,
  type RemakeReason,
  type ToothItem,
  type Treatment,
} from '@portal/contracts';
import { pageOf, sqlDayStart, sqlIsoTime, sqlPageAndTotal, type Queryable } from '../../platform/db.js';

export type Side = 'clinic' | 'lab';

export interface OrderRow {
  id: number;
  code: string;
  clinic_organization_id: number;
  lab_organization_id: number;
  case_id: number;
  order_type: string;
  work_types: Treatment[];
  /** jsonb: parsed by the driver, or its text (`teethOf`). */
  teeth: ToothItem[] | string;
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
  /** A Date, or ISO text in list rows (`sqlIsoTime`). */
  created_at: Date | string;
  updated_at: Date | string;
  case_code: string;
  case_name: string;
  patient_name: string;
  clinic_code: string;
  clinic_name: string;
  lab_code: string;
  lab_name: string;
  product_code: string | null;
  product_name: string | null;
  /** When the order reached `completed` (single-order reads). */
  completed_at: Date | string | null;
  /** The clinic's retention of its scans after completion, in days (single-order reads). */
  clinic_scan_retention_days: number;
  /** The status of the order's partnership now (single-order reads). */
  partnership_status: number | null;
}

export interface OrderFilter {
  status?: string;
  orderType?: string;
  partnerCode?: string;
  dateFrom?: string;
  dateTo?: string;
  /** The reader's timezone: the days of `dateFrom` and `dateTo` start at its midnight (UTC when not given). */
  timezone?: string;
  lateOn?: string;
  sortOrder: 'asc' | 'desc';
}

const SELECT = `SELECT o.*, to_char(o.requested_delivery_date, 'YYYY-MM-DD') AS requested_delivery_date, to_char(o.ship_date, 'YYYY-MM-DD') AS ship_date,
       to_char(o.estimated_delivery_date, 'YYYY-MM-DD') AS estimated_delivery_date, c.code AS case_code, c.name AS case_name, c.patient_name,
       co.code AS clinic_code, co.name AS clinic_name, lo.code AS lab_code, lo.name AS lab_name, lp.code AS product_code, lp.name AS product_name,
       co.scan_retention_days AS clinic_scan_retention_days, (SELECT p.status FROM partnerships p WHERE p.id = o.partnership_id) AS partnership_status
  FROM orders o JOIN cases c ON c.id = o.case_id JOIN organizations co ON co.id = o.clinic_organization_id JOIN organizations lo ON lo.id = o.lab_organization_id
  LEFT JOIN lab_products lp ON lp.id = o.product_id`;

/** The column that scopes a side's orders to the caller's organization. */
export const scopeColumn = (side: Side) => (side === 'clinic' ? 'o.clinic_organization_id' : 'o.lab_organization_id');

/** The columns a list row needs (no prescription or memo), joined after the page is cut. */
const SUMMARY = `o.id, o.code, o.order_type, o.status, o.processing, o.work_types, o.share_patient_name, o.tracking_number,
       ${sqlIsoTime('o.created_at')} AS created_at, ${sqlIsoTime('o.updated_at')} AS updated_at,
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
  const zone = f.dateFrom || f.dateTo ? `$${params.push(f.timezone ?? 'UTC')}` : '';
  if (f.dateFrom) add(`o.created_at >= ${sqlDayStart('?', zone)}`, f.dateFrom);
  if (f.dateTo) add(`o.created_at < ${sqlDayStart('?::date + 1', zone)}`, f.dateTo);
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

export const ordersRepository = {
  /** A case's orders, either side's (an erasure keeps them without the patient). */
  async ofCase(db: Queryable, caseId: number) {
    return db.query<{ id: number; code: string }>(`SELECT id, code FROM orders WHERE case_id = $1 ORDER BY id`, [
      caseId,
    ]);
  },
  /** Every order the organization is a party to (as clinic or laboratory), with its attachments' stored keys. */
  async ofOrganization(db: Queryable, organizationId: number) {
    const ids = (
      await db.query<{ id: number }>(
        `SELECT id
           FROM orders
          WHERE clinic_organization_id = $1 OR lab_organization_id = $1`,
        [organizationId],
      )
    ).map((r) => Number(r.id));
    const attachments = await db.query<{ key: string | null }>(
      `SELECT storage_key AS key
         FROM order_attachments
        WHERE order_id = ANY ($1::bigint[])`,
      [ids],
    );
    return { ids, attachmentKeys: attachments.flatMap((r) => (r.key ? [r.key] : [])) };
  },
  /** Deletes orders with all that hangs on them (events, attachments, messages, notifications). */
  async deleteByIds(db: Queryable, ids: number[]) {
    await db.query(
      `DELETE FROM orders
        WHERE id = ANY ($1::bigint[])`,
      [ids],
    );
  },
  /**
   * The clinic's partnership by code with its laboratory's name, share-locked so it cannot end while orders are
   * being sent through it.
   */
  async shareLockPartnership(db: Queryable, clinicOrgId: number, partnerCode: string) {
    const [row] = await db.query<{
      id: number;
      lab_organization_id: number | null;
      status: number;
      lab_name: string | null;
    }>(
      `SELECT p.id, p.lab_organization_id, p.status, o.name AS lab_name
         FROM partnerships p
         LEFT JOIN organizations o ON o.id = p.lab_organization_id
        WHERE p.code = $1 AND p.clinic_organization_id = $2
          FOR SHARE OF p`,
      [partnerCode, clinicOrgId],
    );
    return row;
  },
  /** The clinic's accepted partnerships with their laboratory's name: where it can send orders now. */
  async acceptedLabs(db: Queryable, clinicOrgId: number) {
    return db.query<{ partner_code: string; name: string }>(
      `SELECT p.code AS partner_code, o.name
         FROM partnerships p
         JOIN organizations o ON o.id = p.lab_organization_id
        WHERE p.clinic_organization_id = $1 AND p.status = $2
        ORDER BY o.name, p.code`,
      [clinicOrgId, PartnerStatus.Accepted],
    );
  },
  /** The laboratory behind one of the clinic's partnerships (none until an invited laboratory confirms). */
  async partnershipLab(db: Queryable, clinicOrgId: number, partnerCode: string) {
    const [row] = await db.query<{ lab_organization_id: number | null; name: string | null }>(
      `SELECT p.lab_organization_id, o.name
         FROM partnerships p
         LEFT JOIN organizations o ON o.id = p.lab_organization_id
        WHERE p.code = $1 AND p.clinic_organization_id = $2`,
      [partnerCode, clinicOrgId],
    );
    return row;
  },
  /** The clinic's live cases among these codes, by id (the order in which orders lock them). */
  async liveCases(db: Queryable, clinicOrgId: number, codes: string[]) {
    return db.query<{ id: number; code: string }>(
      `SELECT id, code
         FROM cases
        WHERE organization_id = $1 AND code = ANY ($2::text[]) AND deleted_at IS NULL
        ORDER BY id`,
      [clinicOrgId, codes],
    );
  },
  async insert(
    db: Queryable,
    o: {
      code: string;
      clinicOrgId: number;
      labOrgId: number;
      partnershipId: number;
      caseId: number;
      orderType: string;
      workTypes: string[];
      teeth: unknown[];
      requestedDeliveryDate: string | null;
      memo: string | null;
      sharePatientName: boolean;
      userId: number;
      productId: number | null;
      estimatedDeliveryDate: string | null;
    },
  ) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO orders (code, clinic_organization_id, lab_organization_id, partnership_id, case_id, order_type, work_types, teeth, requested_delivery_date, memo, share_patient_name, created_by,
                           product_id, estimated_delivery_date)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [
        o.code,
        o.clinicOrgId,
        o.labOrgId,
        o.partnershipId,
        o.caseId,
        o.orderType,
        o.workTypes,
        JSON.stringify(o.teeth),
        o.requestedDeliveryDate,
        o.memo,
        o.sharePatientName,
        o.userId,
        o.productId,
        o.estimatedDeliveryDate,
      ],
    );
    return Number(row!.id);
  },
  /** One side's order by code, locked for an action. */
  async lockForSide(db: Queryable, side: Side, orgId: number, code: string) {
    const [row] = await db.query<OrderRow>(
      `SELECT *
         FROM orders o
        WHERE o.code = $1 AND ${scopeColumn(side)} = $2
          FOR UPDATE`,
      [code, orgId],
    );
    return row;
  },
  /**
   * An action's new status; starting production sets `processing`, and shipping records the tracking number, the
   * ship date and the estimated delivery date (each null leaves the column as it is).
   */
  async applyAction(
    db: Queryable,
    orderId: number,
    a: {
      to: string;
      startProcessing: boolean;
      trackingNumber: string | null;
      shipDate: string | null;
      estimatedDeliveryDate: string | null;
    },
  ) {
    await db.query(
      `UPDATE orders SET status = $2, processing = CASE WHEN $3 THEN true ELSE processing END, updated_at = now(),
              tracking_number = COALESCE($4, tracking_number), ship_date = COALESCE($5::date, ship_date),
              estimated_delivery_date = COALESCE($6::date, estimated_delivery_date),
              completed_at = CASE WHEN $2 = 'completed' THEN now() ELSE completed_at END
        WHERE id = $1`,
      [orderId, a.to, a.startProcessing, a.trackingNumber, a.shipDate, a.estimatedDeliveryDate],
    );
  },
  /** The user's unread notifications of one type about one order. */
  async unreadNotifications(db: Queryable, userId: number, orderId: number, msgType: number) {
    const [row] = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count
         FROM notifications
        WHERE user_id = $1 AND order_id = $2 AND msg_type = $3 AND read_at IS NULL`,
      [userId, orderId, msgType],
    );
    return row;
  },
  async page(db: Queryable, side: Side, orgId: number, f: OrderFilter, limit: number, offset: number) {
    const { sql, params } = pageSql(side, orgId, f, limit, offset);
    return db.query<OrderRow>(sql, params);
  },
  /** A page and the filtered total in one statement: one round trip, one pooled connection. */
  async list(db: Queryable, side: Side, orgId: number, f: OrderFilter, limit: number, offset: number) {
    const { sql, params, where } = pageSql(side, orgId, f, limit, offset);
    const rows = await db.query<OrderRow & { total: number }>(
      sqlPageAndTotal(`FROM orders o WHERE ${where}`, sql),
      params,
    );
    return pageOf(rows);
  },
  /** The partnerships of the side's orders with the other side's name, whatever the partnership's state now. */
  async parties(db: Queryable, side: Side, orgId: number) {
    const other = side === 'clinic' ? 'lab_organization_id' : 'clinic_organization_id';
    return db.query<{ partner_code: string; name: string }>(
      `SELECT p.code AS partner_code, org.name
         FROM (SELECT DISTINCT partnership_id, ${other} AS other_id FROM orders o WHERE ${scopeColumn(side)} = $1) x
         JOIN partnerships p ON p.id = x.partnership_id
         JOIN organizations org ON org.id = x.other_id
        ORDER BY org.name, p.code`,
      [orgId],
    );
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

export interface AttachmentRow {
  id: number;
  code: string;
  order_id: number;
  organization_id: number;
  message_id: number | null;
  name: string;
  format: string;
  size: string;
  storage_key: string;
  created_at: Date;
  organization_name: string;
}

const ATTACHMENTS = `SELECT a.*, og.name AS organization_name FROM order_attachments a JOIN organizations og ON og.id = a.organization_id`;

/** Files either side attaches to an order, with the name of the organization that attached each. */
export const attachmentsRepository = {
  /** The attachments of some orders (an erasure): answers who was charged for each, its size and stored key. */
  async deleteOfOrders(db: Queryable, orderIds: number[]) {
    const rows = await db.query<{ organization_id: number; size: string; storage_key: string }>(
      `DELETE FROM order_attachments WHERE order_id = ANY ($1::bigint[]) RETURNING organization_id, size, storage_key`,
      [orderIds],
    );
    return rows.map((r) => ({ orgId: Number(r.organization_id), size: Number(r.size), key: r.storage_key }));
  },
  async listByOrder(db: Queryable, orderId: number) {
    return db.query<AttachmentRow>(`${ATTACHMENTS} WHERE a.order_id = $1 ORDER BY a.id`, [orderId]);
  },
  async listByMessages(db: Queryable, messageIds: number[]) {
    return db.query<AttachmentRow>(`${ATTACHMENTS} WHERE a.message_id = ANY ($1::bigint[]) ORDER BY a.id`, [
      messageIds,
    ]);
  },
  async listByIds(db: Queryable, ids: number[]) {
    return db.query<AttachmentRow>(`${ATTACHMENTS} WHERE a.id = ANY ($1::bigint[]) ORDER BY a.id`, [ids]);
  },
  async insert(
    db: Queryable,
    a: {
      code: string;
      orderId: number;
      orgId: number;
      userId: number;
      name: string;
      format: string;
      size: number;
      storageKey: string;
    },
  ) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO order_attachments (code, order_id, organization_id, user_id, name, format, size, storage_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       RETURNING id`,
      [a.code, a.orderId, a.orgId, a.userId, a.name, a.format, a.size, a.storageKey],
    );
    return Number(row!.id);
  },
  /**
   * Binds the organization's attachments of the order not bound to a message yet (by code) to the message; answers
   * how many it bound.
   */
  async bindToMessage(db: Queryable, orderId: number, orgId: number, codes: string[], messageId: number) {
    const rows = await db.query(
      `UPDATE order_attachments SET message_id = $4
        WHERE order_id = $1 AND organization_id = $2 AND code = ANY ($3::text[]) AND message_id IS NULL
        RETURNING id`,
      [orderId, orgId, codes, messageId],
    );
    return rows.length;
  },
  /** An attachment of an order the organization is a party to (either side). */
  async findForParty(db: Queryable, orgId: number, code: string) {
    const [row] = await db.query<{ code: string; name: string; storage_key: string }>(
      `SELECT a.code, a.name, a.storage_key
         FROM order_attachments a
         JOIN orders o ON o.id = a.order_id
        WHERE a.code = $1 AND (o.clinic_organization_id = $2 OR o.lab_organization_id = $2)`,
      [code, orgId],
    );
    return row;
  },
  /** An attachment by code alone, for a link already signed and checked. */
  async findByCode(db: Queryable, code: string) {
    const [row] = await db.query<{ name: string; format: string; size: string; storage_key: string }>(
      'SELECT name, format, size, storage_key FROM order_attachments WHERE code = $1',
      [code],
    );
    return row;
  },
};

/** What a notice's words name of its order. */
export interface NoticeOrder {
  code: string;
  case_name: string;
  clinic_name: string;
  lab_name: string;
  tracking_number: string | null;
}

/** One recipient's rows of a mail batch, as the mail about them needs them. */
export type NoticeMailRow = NoticeOrder & {
  id: number;
  event: string;
  params: Record<string, string> | string;
  email: string;
  display_name: string;
  language: string;
  recipient_is_lab: boolean;
  share_patient_name: boolean;
  patient_name: string;
};

/**
 * Notifications of orders (one row per user of the other side) and notices to the organizations' contacts; those
 * due a mail carry their batch until the mail is in the outbox.
 */
export const noticesRepository = {
  /** What the live event of a change to orders names: each order's code, status and two sides. */
  async liveOrders(db: Queryable, orderIds: number[]) {
    return db.query<{ code: string; status: string; clinic_organization_id: number; lab_organization_id: number }>(
      `SELECT code, status, clinic_organization_id, lab_organization_id FROM orders WHERE id = ANY ($1::bigint[])`,
      [orderIds],
    );
  },

  /** A notification per active user of the other side of each order; those who receive mails get the batch. */
  async insertNotifications(
    db: Queryable,
    n: {
      orderIds: number[];
      msgType: number;
      event: string;
      params: Record<string, string>;
      actorOrgId: number;
      mailBatch: string | null;
    },
  ) {
    await db.query(
      `INSERT INTO notifications (user_id, msg_type, order_id, event, params, mail_batch)
       SELECT u.id, $2, o.id, $3, $4::jsonb, CASE WHEN u.receive_email THEN $6::uuid END
         FROM orders o
         JOIN users u ON u.organization_id = CASE WHEN o.clinic_organization_id = $5 THEN o.lab_organization_id
                                                  ELSE o.clinic_organization_id END
        WHERE o.id = ANY ($1::bigint[]) AND u.status = 1`,
      [n.orderIds, n.msgType, n.event, JSON.stringify(n.params), n.actorOrgId, n.mailBatch],
    );
  },
  /** A notice of the batch per verified contact of the other side of each order. */
  async insertContactNotices(
    db: Queryable,
    n: { orderIds: number[]; event: string; params: Record<string, string>; actorOrgId: number; mailBatch: string },
  ) {
    await db.query(
      `INSERT INTO contact_order_notices (contact_id, order_id, event, params, mail_batch)
       SELECT c.id, o.id, $2, $3::jsonb, $5::uuid
         FROM orders o
         JOIN company_contacts c ON c.organization_id = CASE WHEN o.clinic_organization_id = $4
                                                              THEN o.lab_organization_id
                                                              ELSE o.clinic_organization_id END
        WHERE o.id = ANY ($1::bigint[]) AND c.verified_at IS NOT NULL`,
      [n.orderIds, n.event, JSON.stringify(n.params), n.actorOrgId, n.mailBatch],
    );
  },
  /** The active users of the other side who chose text messages and have a phone number, with each order, by user. */
  /** A station letter about a chat conversation (message type 2, event `chat`): the chat's unread messages. */
  async insertChatLetter(tx: Queryable, userId: number, conversationId: number, params: Record<string, unknown>) {
    await tx.query(
      `INSERT INTO notifications (user_id, msg_type, conversation_id, event, params) VALUES ($1, 2, $2, 'chat', $3)`,
      [userId, conversationId, JSON.stringify(params)],
    );
  },
  async textRecipients(db: Queryable, orderIds: number[], actorOrgId: number) {
    return db.query<NoticeOrder & { user_id: number; phone: string; language: string }>(
      `SELECT u.id AS user_id, u.phone, u.language, o.code, o.tracking_number, c.name AS case_name,
              co.name AS clinic_name, lo.name AS lab_name
         FROM orders o
         JOIN cases c ON c.id = o.case_id
         JOIN organizations co ON co.id = o.clinic_organization_id
         JOIN organizations lo ON lo.id = o.lab_organization_id
         JOIN users u ON u.organization_id = CASE WHEN o.clinic_organization_id = $2 THEN o.lab_organization_id
                                                  ELSE o.clinic_organization_id END
        WHERE o.id = ANY ($1::bigint[]) AND u.status = 1 AND u.msg_receive_type = 'sms' AND u.phone IS NOT NULL
        ORDER BY u.id, o.id`,
      [orderIds, actorOrgId],
    );
  },
  /** Batches still waiting for their mails longer than a while (at most 100). */
  async batchesLeftBehind(db: Queryable, olderThanSeconds: number) {
    return db.query<{ mail_batch: string }>(
      `SELECT mail_batch
         FROM notifications
        WHERE mail_batch IS NOT NULL AND created_at < now() - make_interval(secs => $1)
        UNION
       SELECT mail_batch
         FROM contact_order_notices
        WHERE created_at < now() - make_interval(secs => $1)
        LIMIT 100`,
      [olderThanSeconds],
    );
  },
  /**
   * The batch's notifications with their users and orders, by user. SKIP LOCKED: a batch being mailed by this or
   * another process is left to it.
   */
  async lockBatchNotifications(db: Queryable, batch: string) {
    return db.query<NoticeMailRow & { user_id: number }>(
      `SELECT n.id, n.event, n.params, u.id AS user_id, u.email, u.display_name, u.language,
              u.organization_id = o.lab_organization_id AS recipient_is_lab,
              o.code, o.tracking_number, o.share_patient_name, c.name AS case_name, c.patient_name,
              co.name AS clinic_name, lo.name AS lab_name
         FROM notifications n
         JOIN users u ON u.id = n.user_id
         JOIN orders o ON o.id = n.order_id
         JOIN cases c ON c.id = o.case_id
         JOIN organizations co ON co.id = o.clinic_organization_id
         JOIN organizations lo ON lo.id = o.lab_organization_id
        WHERE n.mail_batch = $1
        ORDER BY u.id, o.id
          FOR UPDATE OF n SKIP LOCKED`,
      [batch],
    );
  },
  /**
   * The batch's contact notices, by contact; a contact is mailed in the language of the organization that added it
   * (a deleted one took its rows along). Skips rows another process is mailing, as above.
   */
  async lockBatchContactNotices(db: Queryable, batch: string) {
    return db.query<NoticeMailRow & { contact_id: number; organization_name: string }>(
      `SELECT n.id, n.event, n.params, ct.id AS contact_id, ct.email, ct.user_name AS display_name,
              og.language, og.name AS organization_name,
              ct.organization_id = o.lab_organization_id AS recipient_is_lab,
              o.code, o.tracking_number, o.share_patient_name, c.name AS case_name, c.patient_name,
              co.name AS clinic_name, lo.name AS lab_name
         FROM contact_order_notices n
         JOIN company_contacts ct ON ct.id = n.contact_id
         JOIN organizations og ON og.id = ct.organization_id
         JOIN orders o ON o.id = n.order_id
         JOIN cases c ON c.id = o.case_id
         JOIN organizations co ON co.id = o.clinic_organization_id
         JOIN organizations lo ON lo.id = o.lab_organization_id
        WHERE n.mail_batch = $1
        ORDER BY ct.id, o.id
          FOR UPDATE OF n SKIP LOCKED`,
      [batch],
    );
  },
  /** The notifications' mails are in the outbox. */
  async clearMailBatch(db: Queryable, ids: number[]) {
    await db.query(`UPDATE notifications SET mail_batch = NULL WHERE id = ANY ($1::bigint[])`, [ids]);
  },
  /** Marks the user's unread notifications of one type about one order read. */
  async markOrderRead(db: Queryable, userId: number, orderId: number, msgType: number) {
    await db.query(
      `UPDATE notifications SET read_at = now()
        WHERE user_id = $1 AND order_id = $2 AND msg_type = $3 AND read_at IS NULL`,
      [userId, orderId, msgType],
    );
  },
  /** Marks the user's unread notifications read: those given by id, of a type, of an order, or all. */
  async markRead(
    db: Queryable,
    userId: number,
    which: { ids: number[] | null; msgType: number | null; orderCode: string | null },
  ) {
    await db.query(
      `UPDATE notifications n SET read_at = now()
        WHERE n.user_id = $1 AND n.read_at IS NULL
          AND ($2::bigint[] IS NULL OR n.id = ANY ($2::bigint[])) AND ($3::smallint IS NULL OR n.msg_type = $3)
          AND ($4::text IS NULL OR n.order_id = (SELECT id FROM orders WHERE code = $4))`,
      [userId, which.ids, which.msgType, which.orderCode],
    );
  },
  /** Contact notices live only until their mails are in the outbox. */
  async deleteContactNotices(db: Queryable, ids: number[]) {
    await db.query(`DELETE FROM contact_order_notices WHERE id = ANY ($1::bigint[])`, [ids]);
  },
};
