import type { OrderStatus } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';

export type Side = 'clinic' | 'lab';

export interface OrderRow {
  id: number; code: string; clinic_organization_id: number; lab_organization_id: number; case_id: number; order_type: string; work_types: string[];
  teeth: unknown; status: OrderStatus; processing: boolean; requested_delivery_date: string | null; ship_date: string | null; tracking_number: string | null;
  estimated_delivery_date: string | null; memo: string | null; share_patient_name: boolean; created_at: Date; updated_at: Date;
  case_code: string; case_name: string; patient_name: string; clinic_code: string; clinic_name: string; lab_code: string; lab_name: string;
}

export interface OrderFilter {
  status?: string; orderType?: string; partnerCode?: string; dateFrom?: string; dateTo?: string; sortOrder: 'asc' | 'desc';
}

const SELECT = `SELECT o.*, to_char(o.requested_delivery_date, 'YYYY-MM-DD') AS requested_delivery_date, to_char(o.ship_date, 'YYYY-MM-DD') AS ship_date,
       to_char(o.estimated_delivery_date, 'YYYY-MM-DD') AS estimated_delivery_date, c.code AS case_code, c.name AS case_name, c.patient_name,
       co.code AS clinic_code, co.name AS clinic_name, lo.code AS lab_code, lo.name AS lab_name
  FROM orders o JOIN cases c ON c.id = o.case_id JOIN organizations co ON co.id = o.clinic_organization_id JOIN organizations lo ON lo.id = o.lab_organization_id`;

/** The column that scopes a side's orders to the caller's organization. */
export const scopeColumn = (side: Side) => (side === 'clinic' ? 'o.clinic_organization_id' : 'o.lab_organization_id');

// The filter both the page and its count use; $1 is the organization.
const FILTER = `($2::text IS NULL OR o.status = $2) AND ($3::text IS NULL OR o.order_type = $3)
  AND ($4::text IS NULL OR o.partnership_id = (SELECT id FROM partnerships WHERE code = $4))
  AND ($5::date IS NULL OR o.created_at >= $5::date) AND ($6::date IS NULL OR o.created_at < $6::date + interval '1 day')`;
const filterParams = (orgId: number, f: OrderFilter) => [orgId, f.status ?? null, f.orderType ?? null, f.partnerCode ?? null, f.dateFrom ?? null, f.dateTo ?? null];
const direction = (f: OrderFilter) => (f.sortOrder === 'asc' ? 'ASC' : 'DESC');

export const ordersRepository = {
  async page(db: Queryable, side: Side, orgId: number, f: OrderFilter, limit: number, offset: number) {
    return db.query<OrderRow>(
      `${SELECT} WHERE ${scopeColumn(side)} = $1 AND ${FILTER} ORDER BY o.created_at ${direction(f)}, o.id ${direction(f)} LIMIT $7 OFFSET $8`,
      [...filterParams(orgId, f), limit, offset],
    );
  },
  async count(db: Queryable, side: Side, orgId: number, f: OrderFilter) {
    const [row] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM orders o WHERE ${scopeColumn(side)} = $1 AND ${FILTER}`, filterParams(orgId, f));
    return row!.total;
  },
  async find(db: Queryable, side: Side, orgId: number, code: string) {
    const [row] = await db.query<OrderRow>(`${SELECT} WHERE o.code = $1 AND ${scopeColumn(side)} = $2`, [code, orgId]);
    return row;
  },
  async findByIds(db: Queryable, ids: number[]) {
    return db.query<OrderRow>(`${SELECT} WHERE o.id = ANY ($1::bigint[]) ORDER BY o.id`, [ids]);
  },
  async events(db: Queryable, orderId: number) {
    return db.query<{ action: string; from_status: string | null; to_status: string; reason: string | null; actor: string | null; org: string | null; created_at: Date }>(
      `SELECT e.action, e.from_status, e.to_status, e.reason, u.display_name AS actor, og.name AS org, e.created_at FROM order_events e
         LEFT JOIN users u ON u.id = e.actor_user_id LEFT JOIN organizations og ON og.id = e.actor_organization_id WHERE e.order_id = $1 ORDER BY e.id`,
      [orderId],
    );
  },
  event(db: Queryable, e: { orderId: number; action: string; from: string | null; to: string; reason: string | null; userId: number; orgId: number }) {
    return db.query(
      `INSERT INTO order_events (order_id, action, from_status, to_status, reason, actor_user_id, actor_organization_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [e.orderId, e.action, e.from, e.to, e.reason, e.userId, e.orgId],
    );
  },
  async requiredFields(db: Queryable, labOrgId: number) {
    return db.query<{ work_type: string; fields: string[] }>('SELECT work_type, fields FROM lab_required_fields WHERE lab_organization_id = $1 ORDER BY work_type', [labOrgId]);
  },
  async saveRequiredFields(db: Queryable, labOrgId: number, rules: { workType: string; fields: string[] }[]) {
    await db.query('DELETE FROM lab_required_fields WHERE lab_organization_id = $1', [labOrgId]);
    for (const r of rules) {
      await db.query('INSERT INTO lab_required_fields (lab_organization_id, work_type, fields) VALUES ($1, $2, $3)', [labOrgId, r.workType, [...new Set(r.fields)]]);
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
