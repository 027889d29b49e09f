import { CASE_STATUSES, ORDER_STATUSES, PERIOD_DAYS, type DashboardPeriod } from '@portal/contracts';
import type { AuthContext } from '../../platform/auth.js';
import type { Db } from '../../platform/db.js';
import { ordersRepository } from '../orders/orders.repository.js';
import { sideOf, toSummary } from '../orders/orders.service.js';

const RECENT = 5;

/**
 * The clinic's and the laboratory's dashboards. A clinic counts its cases and the orders it sent; a
 * laboratory counts the orders it received, and the cases that came with them.
 */
export class DashboardService {
  constructor(private readonly db: Db) {}

  async index(auth: AuthContext) {
    const side = sideOf(auth);
    const org = auth.organizationId;
    const orderScope = side === 'clinic' ? 'clinic_organization_id' : 'lab_organization_id';
    const [caseCounts, orderCounts, recentCases, recentOrders, [partners], [unread]] = await Promise.all([
      side === 'clinic'
        ? this.db.query<{ status: string; count: number }>(
            'SELECT status, count(*)::int AS count FROM cases WHERE organization_id = $1 AND deleted_at IS NULL GROUP BY status',
            [org],
          )
        : this.db.query<{ status: string; count: number }>(
            `SELECT c.status, count(DISTINCT c.id)::int AS count FROM orders o JOIN cases c ON c.id = o.case_id WHERE o.lab_organization_id = $1 GROUP BY c.status`,
            [org],
          ),
      this.db.query<{ status: string; count: number }>(
        `SELECT status, count(*)::int AS count FROM orders WHERE ${orderScope} = $1 GROUP BY status`,
        [org],
      ),
      side === 'clinic'
        ? this.db.query<{ code: string; name: string; patient_name: string; status: string; created_at: Date }>(
            'SELECT code, name, patient_name, status, created_at FROM cases WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $2',
            [org, RECENT],
          )
        : // The laboratory sees the patient's name only where the clinic shares it.
          this.db.query<{ code: string; name: string; patient_name: string; status: string; created_at: Date }>(
            `SELECT c.code, c.name, CASE WHEN o.share_patient_name THEN c.patient_name ELSE '' END AS patient_name, c.status, o.created_at
             FROM orders o JOIN cases c ON c.id = o.case_id WHERE o.lab_organization_id = $1 ORDER BY o.created_at DESC, o.id DESC LIMIT $2`,
            [org, RECENT],
          ),
      ordersRepository.page(this.db, side, org, { sortOrder: 'desc' }, RECENT, 0),
      this.db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM partnerships WHERE status = 1 AND ${side === 'clinic' ? 'clinic_organization_id' : 'lab_organization_id'} = $1`,
        [org],
      ),
      this.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM notifications WHERE user_id = $1 AND read_at IS NULL',
        [auth.userId],
      ),
    ]);
    const byStatus = <S extends string>(statuses: readonly S[], rows: { status: string; count: number }[]) =>
      statuses.map((status) => ({ status, count: rows.find((r) => r.status === status)?.count ?? 0 }));
    const sum = (rows: { count: number }[]) => rows.reduce((s, r) => s + r.count, 0);
    return {
      side,
      cases: { total: sum(caseCounts), byStatus: byStatus(CASE_STATUSES, caseCounts) },
      orders: { total: sum(orderCounts), byStatus: byStatus(ORDER_STATUSES, orderCounts) },
      partners: partners?.count ?? 0,
      unreadMessages: unread?.count ?? 0,
      recentCases: recentCases.map((c) => ({
        caseCode: c.code,
        name: c.name,
        patientName: c.patient_name,
        status: c.status as never,
        createdAt: new Date(c.created_at).toISOString(),
      })),
      recentOrders: recentOrders.map((r) => toSummary(r, side)),
    };
  }

  /** Counts per day of the period in the caller's timezone, empty days included. */
  private async series(sql: string, org: number, period: DashboardPeriod, timezone: string) {
    const days = PERIOD_DAYS[period];
    const rows = await this.db.query<{ day: string; count: number }>(
      `WITH days AS (
         SELECT generate_series((now() AT TIME ZONE $2)::date - ($3::int - 1), (now() AT TIME ZONE $2)::date, interval '1 day')::date AS day
       ), counted AS (${sql})
       SELECT to_char(d.day, 'YYYY-MM-DD') AS day, COALESCE(c.count, 0)::int AS count FROM days d LEFT JOIN counted c ON c.day = d.day ORDER BY d.day`,
      [org, timezone, days],
    );
    return { total: rows.reduce((s, r) => s + r.count, 0), points: rows.map((r) => ({ date: r.day, count: r.count })) };
  }

  /** A clinic's new cases per day; a laboratory's received orders per day. */
  lineChart(auth: AuthContext, period: DashboardPeriod, timezone: string) {
    const since = `now() - make_interval(days => $3::int + 1)`;
    return sideOf(auth) === 'clinic'
      ? this.series(
          `SELECT (created_at AT TIME ZONE $2)::date AS day, count(*) AS count FROM cases
                      WHERE organization_id = $1 AND created_at >= ${since} GROUP BY 1`,
          auth.organizationId,
          period,
          timezone,
        )
      : this.series(
          `SELECT (created_at AT TIME ZONE $2)::date AS day, count(*) AS count FROM orders
                      WHERE lab_organization_id = $1 AND created_at >= ${since} GROUP BY 1`,
          auth.organizationId,
          period,
          timezone,
        );
  }

  /** Orders accepted per day: those the laboratory accepted, or the clinic's orders its laboratories accepted. */
  acceptedLineChart(auth: AuthContext, period: DashboardPeriod, timezone: string) {
    const scope = sideOf(auth) === 'clinic' ? 'o.clinic_organization_id' : 'o.lab_organization_id';
    return this.series(
      `SELECT (e.created_at AT TIME ZONE $2)::date AS day, count(*) AS count FROM order_events e JOIN orders o ON o.id = e.order_id
        WHERE e.action = 'accept' AND ${scope} = $1 AND e.created_at >= now() - make_interval(days => $3::int + 1) GROUP BY 1`,
      auth.organizationId,
      period,
      timezone,
    );
  }
}
