import { DEVICE_LOW_BATTERY_PERCENT, DEVICE_WARRANTY_ENDING_DAYS, OrgType, type CaseStatus } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';

/** Which side of orders the organization is on (as the orders module's `sideOf` tells). */
type Side = 'clinic' | 'lab';
type StatusCount = { status: string; count: number };
type RecentCase = { code: string; name: string; patient_name: string; status: CaseStatus; created_at: Date };

/** Counts per day of the last `$3` days in the timezone `$2`, empty days included; `counted` gives (day, count). */
async function perDay(db: Queryable, counted: string, org: number, days: number, timezone: string) {
  return db.query<{ day: string; count: number }>(
    `WITH days AS (
       SELECT generate_series((now() AT TIME ZONE $2)::date - ($3::int - 1), (now() AT TIME ZONE $2)::date, interval '1 day')::date AS day
     ), counted AS (${counted})
     SELECT to_char(d.day, 'YYYY-MM-DD') AS day, COALESCE(c.count, 0)::int AS count
       FROM days d
       LEFT JOIN counted c ON c.day = d.day
      ORDER BY d.day`,
    [org, timezone, days],
  );
}

/** Since the day before the period began (the day boundaries move with the timezone). */
const SINCE = `now() - make_interval(days => $3::int + 1)`;

/**
 * The dashboards' figures. A clinic counts its cases and the orders it sent; a laboratory the orders it received
 * and the cases that came with them.
 */
export const dashboardRepository = {
  async caseCounts(db: Queryable, side: Side, org: number) {
    return side === 'clinic'
      ? db.query<StatusCount>(
          `SELECT status, count(*)::int AS count
             FROM cases
            WHERE organization_id = $1 AND deleted_at IS NULL
            GROUP BY status`,
          [org],
        )
      : db.query<StatusCount>(
          `SELECT c.status, count(DISTINCT c.id)::int AS count
             FROM orders o
             JOIN cases c ON c.id = o.case_id
            WHERE o.lab_organization_id = $1
            GROUP BY c.status`,
          [org],
        );
  },
  async orderCounts(db: Queryable, side: Side, org: number) {
    const scope = side === 'clinic' ? 'clinic_organization_id' : 'lab_organization_id';
    return db.query<StatusCount>(
      `SELECT status, count(*)::int AS count
         FROM orders
        WHERE ${scope} = $1
        GROUP BY status`,
      [org],
    );
  },
  /** The newest cases: a clinic's own, or those that came with a laboratory's newest orders. */
  async recentCases(db: Queryable, side: Side, org: number, limit: number) {
    return side === 'clinic'
      ? db.query<RecentCase>(
          `SELECT code, name, patient_name, status, created_at
             FROM cases
            WHERE organization_id = $1 AND deleted_at IS NULL
            ORDER BY created_at DESC, id DESC
            LIMIT $2`,
          [org, limit],
        )
      : // The laboratory sees the patient's name only where the clinic shares it.
        db.query<RecentCase>(
          `SELECT c.code, c.name, CASE WHEN o.share_patient_name THEN c.patient_name ELSE '' END AS patient_name, c.status, o.created_at
             FROM orders o
             JOIN cases c ON c.id = o.case_id
            WHERE o.lab_organization_id = $1
            ORDER BY o.created_at DESC, o.id DESC
            LIMIT $2`,
          [org, limit],
        );
  },
  /** Accepted partnerships (status 1) of the organization on its side. */
  async partners(db: Queryable, side: Side, org: number) {
    const [row] = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count
         FROM partnerships
        WHERE status = 1 AND ${side === 'clinic' ? 'clinic_organization_id' : 'lab_organization_id'} = $1`,
      [org],
    );
    return row;
  },
  async unreadNotifications(db: Queryable, userId: number) {
    const [row] = await db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM notifications WHERE user_id = $1 AND read_at IS NULL',
      [userId],
    );
    return row;
  },
  /** A clinic's new cases per day. */
  async casesPerDay(db: Queryable, org: number, days: number, timezone: string) {
    return perDay(
      db,
      `SELECT (created_at AT TIME ZONE $2)::date AS day, count(*) AS count FROM cases
        WHERE organization_id = $1 AND created_at >= ${SINCE} GROUP BY 1`,
      org,
      days,
      timezone,
    );
  },
  /** A laboratory's received orders per day. */
  async ordersReceivedPerDay(db: Queryable, org: number, days: number, timezone: string) {
    return perDay(
      db,
      `SELECT (created_at AT TIME ZONE $2)::date AS day, count(*) AS count FROM orders
        WHERE lab_organization_id = $1 AND created_at >= ${SINCE} GROUP BY 1`,
      org,
      days,
      timezone,
    );
  },
  /** Orders accepted per day: those the laboratory accepted, or the clinic's orders its laboratories accepted. */
  async acceptedPerDay(db: Queryable, side: Side, org: number, days: number, timezone: string) {
    const scope = side === 'clinic' ? 'o.clinic_organization_id' : 'o.lab_organization_id';
    return perDay(
      db,
      `SELECT (e.created_at AT TIME ZONE $2)::date AS day, count(*) AS count FROM order_events e JOIN orders o ON o.id = e.order_id
        WHERE e.action = 'accept' AND ${scope} = $1 AND e.created_at >= ${SINCE} GROUP BY 1`,
      org,
      days,
      timezone,
    );
  },
};

/** The scanners an organization counts, as the device list shows them: a dealer those it sells, an OEM those it makes. */
function deviceScope(orgType: number): string {
  switch (orgType) {
    case OrgType.Inner:
      return '$1::bigint IS NOT NULL';
    case OrgType.Dealer:
      return 'd.dealer_organization_id = $1';
    case OrgType.Oem:
      return 'd.oem_organization_id = $1';
    default:
      return 'd.clinic_organization_id = $1';
  }
}

/** A dealer's or an OEM's scanners (`deviceScope` of the organization's type, `$1` its id); days in timezone `$2`. */
export const deviceDashboardRepository = {
  async byStatusAndLimit(db: Queryable, orgType: number, org: number) {
    return db.query<{ status: string; limit_type: number; count: number }>(
      `SELECT d.status, d.limit_type, count(*)::int AS count FROM devices d
        WHERE ${deviceScope(orgType)} GROUP BY 1, 2`,
      [org],
    );
  },
  async figures(db: Queryable, orgType: number, org: number, timezone: string) {
    const rows = await db.query<{
      activated: number;
      warranty: number;
      battery: number;
      clinics: number;
      imported: number;
    }>(
      `WITH t AS (SELECT (now() AT TIME ZONE $2)::date AS today,
                         date_trunc('month', now() AT TIME ZONE $2) AT TIME ZONE $2 AS month_start)
       SELECT count(*) FILTER (WHERE d.activated_at >= t.month_start)::int AS activated,
              count(*) FILTER (WHERE d.warranty_date BETWEEN t.today AND t.today + $3::int)::int AS warranty,
              count(*) FILTER (WHERE d.battery_health < $4::int)::int AS battery,
              count(DISTINCT d.clinic_organization_id)::int AS clinics,
              count(*) FILTER (WHERE d.created_at >= t.month_start)::int AS imported
         FROM devices d CROSS JOIN t
        WHERE ${deviceScope(orgType)}`,
      [org, timezone, DEVICE_WARRANTY_ENDING_DAYS, DEVICE_LOW_BATTERY_PERCENT],
    );
    return rows[0]!;
  },
  /** Activations per day over the last `days` days. */
  async activationsPerDay(db: Queryable, orgType: number, org: number, days: number, timezone: string) {
    return perDay(
      db,
      `SELECT (d.activated_at AT TIME ZONE $2)::date AS day, count(*) AS count FROM devices d
        WHERE ${deviceScope(orgType)} AND d.activated_at >= ${SINCE} GROUP BY 1`,
      org,
      days,
      timezone,
    );
  },
};
