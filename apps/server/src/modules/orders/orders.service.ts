import {
  canOrder, CASE_STATUS_BY_ORDER, OrgType, ORDER_TRANSITIONS, PartnerStatus, type CreateOrderBody, type OrderAction, type OrderStatus,
} from '@portal/contracts';
import type { AuthContext } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, fail } from '../../platform/errors.js';
import { newCode } from '../../platform/crypto.js';
import { t } from '../../platform/i18n.js';

interface OrderRow {
  id: number; code: string; clinic_organization_id: number; lab_organization_id: number; case_id: number; order_type: string; work_types: string[];
  teeth: unknown; status: OrderStatus; processing: boolean; requested_delivery_date: string | null; ship_date: string | null; tracking_number: string | null;
  estimated_delivery_date: string | null; memo: string | null; share_patient_name: boolean; created_at: Date; updated_at: Date;
  case_code: string; case_name: string; patient_name: string; clinic_code: string; clinic_name: string; lab_code: string; lab_name: string; total?: string;
}

const SELECT = `SELECT o.*, to_char(o.requested_delivery_date, 'YYYY-MM-DD') AS requested_delivery_date, to_char(o.ship_date, 'YYYY-MM-DD') AS ship_date,
       to_char(o.estimated_delivery_date, 'YYYY-MM-DD') AS estimated_delivery_date, c.code AS case_code, c.name AS case_name, c.patient_name,
       co.code AS clinic_code, co.name AS clinic_name, lo.code AS lab_code, lo.name AS lab_name
  FROM orders o JOIN cases c ON c.id = o.case_id JOIN organizations co ON co.id = o.clinic_organization_id JOIN organizations lo ON lo.id = o.lab_organization_id`;

type Side = 'clinic' | 'lab';

/** Orders from clinics to laboratories: one state machine for both sides, every change an event. */
export class OrdersService {
  constructor(private readonly db: Db) {}

  private side(auth: AuthContext): Side {
    if (auth.orgType === OrgType.Clinic) return 'clinic';
    if (auth.orgType === OrgType.Lab) return 'lab';
    fail('NO_PERMISSION');
  }

  private summary(r: OrderRow, side: Side) {
    return {
      orderCode: r.code, orderType: r.order_type, status: r.status, processing: r.processing, caseCode: r.case_code, caseName: r.case_name,
      // The laboratory never receives the patient's name unless the clinic shares it.
      patientName: side === 'clinic' || r.share_patient_name ? r.patient_name : null,
      clinic: { code: r.clinic_code, name: r.clinic_name }, lab: { code: r.lab_code, name: r.lab_name },
      workTypes: r.work_types as never, requestedDeliveryDate: r.requested_delivery_date, shipDate: r.ship_date, trackingNumber: r.tracking_number,
      estimatedDeliveryDate: r.estimated_delivery_date, createdAt: new Date(r.created_at).toISOString(), updatedAt: new Date(r.updated_at).toISOString(),
    };
  }

  private scope(side: Side) {
    return side === 'clinic' ? 'o.clinic_organization_id' : 'o.lab_organization_id';
  }

  /** Sends cases to a partner laboratory: one order per case, all or none. */
  async create(auth: AuthContext, body: CreateOrderBody) {
    if (this.side(auth) !== 'clinic') fail('NO_PERMISSION');
    const codes = await this.db.transaction(async (tx) => {
      const [p] = await tx.query<{ id: number; lab_organization_id: number | null; status: number }>(
        'SELECT id, lab_organization_id, status FROM partnerships WHERE code = $1 AND clinic_organization_id = $2 FOR SHARE',
        [body.partnerCode, auth.organizationId],
      );
      if (!p) fail('NOT_FOUND');
      if (p.status !== PartnerStatus.Accepted || !p.lab_organization_id) fail('PARTNER_NOT_ACCEPTED');
      const cases = await tx.query<{ id: number; code: string }>(
        'SELECT id, code FROM cases WHERE organization_id = $1 AND code = ANY ($2::text[]) AND deleted_at IS NULL',
        [auth.organizationId, [...new Set(body.caseCodes)]],
      );
      if (cases.length !== new Set(body.caseCodes).size) fail('NOT_FOUND');
      const made: string[] = [];
      for (const c of cases) {
        const code = newCode('o');
        const [o] = await tx.query<{ id: number }>(
          `INSERT INTO orders (code, clinic_organization_id, lab_organization_id, partnership_id, case_id, order_type, work_types, teeth, requested_delivery_date, memo, share_patient_name, created_by)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
          [code, auth.organizationId, p.lab_organization_id, p.id, c.id, body.orderType, body.workTypes, JSON.stringify(body.teeth), body.requestedDeliveryDate ?? null,
            body.memo ?? null, body.sharePatientName, auth.userId],
        );
        await this.event(tx, Number(o!.id), 'create', null, 'pending', null, auth);
        await tx.query(`UPDATE cases SET status = $2, updated_at = now() WHERE id = $1`, [c.id, CASE_STATUS_BY_ORDER.pending]);
        made.push(code);
      }
      return made;
    });
    return { list: await Promise.all(codes.map((c) => this.detail(auth, c))) };
  }

  private event(tx: Queryable, orderId: number, action: string, from: string | null, to: string, reason: string | null, auth: AuthContext) {
    return tx.query(
      `INSERT INTO order_events (order_id, action, from_status, to_status, reason, actor_user_id, actor_organization_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [orderId, action, from, to, reason, auth.userId, auth.organizationId],
    );
  }

  /**
   * One action on each of several orders, each in its own transaction with a row lock, so concurrent
   * conflicting actions leave exactly one winner; every order answers for itself.
   */
  async act(auth: AuthContext, body: { orderCodes: string[]; action: OrderAction; reason?: string; trackingNumber?: string; shipDate?: string; estimatedDeliveryDate?: string }) {
    const side = this.side(auth);
    if (body.action === 'reject' && !body.reason?.trim()) fail('PARAM_INVALID', { field: 'reason' }, { field: 'reason' });
    if (body.action === 'ship' && !body.trackingNumber?.trim()) fail('PARAM_INVALID', { field: 'trackingNumber' }, { field: 'trackingNumber' });
    const results = [];
    for (const code of [...new Set(body.orderCodes)]) {
      try {
        await this.db.transaction(async (tx) => {
          const [o] = await tx.query<OrderRow>(`SELECT * FROM orders o WHERE o.code = $1 AND ${this.scope(side)} = $2 FOR UPDATE`, [code, auth.organizationId]);
          if (!o) fail('NOT_FOUND');
          if (!canOrder(body.action, o.status, side, o.processing)) {
            throw new AppError('ORDER_TRANSITION', { action: body.action, status: o.status }, { status: o.status, action: body.action });
          }
          const to = ORDER_TRANSITIONS[body.action].to;
          await tx.query(
            `UPDATE orders SET status = $2, processing = CASE WHEN $3 THEN true ELSE processing END, updated_at = now(),
                    tracking_number = COALESCE($4, tracking_number), ship_date = COALESCE($5::date, ship_date),
                    estimated_delivery_date = COALESCE($6::date, estimated_delivery_date)
              WHERE id = $1`,
            [o.id, to, body.action === 'startProcessing', body.action === 'ship' ? body.trackingNumber!.trim() : null,
              body.action === 'ship' ? (body.shipDate ?? new Date().toISOString().slice(0, 10)) : null, body.action === 'ship' ? (body.estimatedDeliveryDate ?? null) : null],
          );
          await this.event(tx, Number(o.id), body.action, o.status, to, body.reason?.trim() || null, auth);
          const caseStatus = CASE_STATUS_BY_ORDER[to];
          if (caseStatus && to !== o.status) await tx.query('UPDATE cases SET status = $2, updated_at = now() WHERE id = $1', [o.case_id, caseStatus]);
        });
        results.push({ orderCode: code, ok: true, code: 200, msg: t(auth.user.language, 'success') });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        results.push({ orderCode: code, ok: false, code: err.entry.code, msg: t(auth.user.language, err.entry.key, err.params) });
      }
    }
    return { results };
  }

  async list(auth: AuthContext, q: { pageNum: number; pageSize: number; status?: string; orderType?: string; partnerCode?: string; dateFrom?: string; dateTo?: string; sortOrder: 'asc' | 'desc' }) {
    const side = this.side(auth);
    const rows = await this.db.query<OrderRow>(
      `${SELECT} WHERE ${this.scope(side)} = $1
          AND ($2::text IS NULL OR o.status = $2) AND ($3::text IS NULL OR o.order_type = $3)
          AND ($4::text IS NULL OR o.partnership_id = (SELECT id FROM partnerships WHERE code = $4))
          AND ($5::date IS NULL OR o.created_at >= $5::date) AND ($6::date IS NULL OR o.created_at < $6::date + interval '1 day')
        ORDER BY o.created_at ${q.sortOrder === 'asc' ? 'ASC' : 'DESC'}, o.id ${q.sortOrder === 'asc' ? 'ASC' : 'DESC'} LIMIT $7 OFFSET $8`,
      [auth.organizationId, q.status ?? null, q.orderType ?? null, q.partnerCode ?? null, q.dateFrom ?? null, q.dateTo ?? null, q.pageSize, (q.pageNum - 1) * q.pageSize],
    );
    const [counted] = await this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM orders o WHERE ${this.scope(side)} = $1
          AND ($2::text IS NULL OR o.status = $2) AND ($3::text IS NULL OR o.order_type = $3)
          AND ($4::text IS NULL OR o.partnership_id = (SELECT id FROM partnerships WHERE code = $4))
          AND ($5::date IS NULL OR o.created_at >= $5::date) AND ($6::date IS NULL OR o.created_at < $6::date + interval '1 day')`,
      [auth.organizationId, q.status ?? null, q.orderType ?? null, q.partnerCode ?? null, q.dateFrom ?? null, q.dateTo ?? null],
    );
    return { total: counted!.total, list: rows.map((r) => this.summary(r, side)) };
  }

  async detail(auth: AuthContext, orderCode: string) {
    const side = this.side(auth);
    const [r] = await this.db.query<OrderRow>(`${SELECT} WHERE o.code = $1 AND ${this.scope(side)} = $2`, [orderCode, auth.organizationId]);
    if (!r) fail('NOT_FOUND');
    const events = await this.db.query<{ action: string; from_status: string | null; to_status: string; reason: string | null; actor: string | null; org: string | null; created_at: Date }>(
      `SELECT e.action, e.from_status, e.to_status, e.reason, u.display_name AS actor, og.name AS org, e.created_at FROM order_events e
         LEFT JOIN users u ON u.id = e.actor_user_id LEFT JOIN organizations og ON og.id = e.actor_organization_id WHERE e.order_id = $1 ORDER BY e.id`,
      [r.id],
    );
    return {
      ...this.summary(r, side),
      teeth: (typeof r.teeth === 'string' ? JSON.parse(r.teeth) : r.teeth) as never,
      memo: r.memo,
      sharePatientName: r.share_patient_name,
      events: events.map((e) => ({ action: e.action, from: e.from_status, to: e.to_status, reason: e.reason, actorName: e.actor ?? '', actorOrganization: e.org ?? '', at: new Date(e.created_at).toISOString() })),
    };
  }
}
