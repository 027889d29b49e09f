import type { RemakeReason, Scorecard } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';
import type { ScorecardTallies, WindowCounts } from './scorecard-figures.js';

interface LabRow {
  id: number;
  code: string;
  name: string;
  /** Null before the laboratory's figures ever changed. */
  version: number | null;
  as_of: string | null;
  figures: Omit<Scorecard, 'lab' | 'asOf'> | string | null;
}

interface TallyRow {
  kind: 'turnaround' | 'remakes' | 'week' | 'weekRemakes';
  key: string;
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
  g: number;
  h: number;
  i: number;
}

/**
 * One statement for a whole scorecard: shipments by turnaround per window (30/90/365 days ending `today`, UTC), remakes
 * by reason per window, and shipments and remakes per week from `trendStart`. Shipments come from the daily tally the
 * shipping transaction keeps; remakes from the partial index of remake orders (withdrawn ones, canceled, left out).
 */
const TALLIES = `
WITH w AS (
  SELECT $2::date AS today, $3::date AS trend_start
), d AS (
  SELECT d.day, d.turnaround_days, d.shipped, d.due_counted, d.on_time
    FROM lab_scorecard_days d, w
   WHERE d.lab_organization_id = $1 AND d.day > w.today - 365 AND d.day <= w.today
), r AS (
  SELECT (o.created_at AT TIME ZONE 'UTC')::date AS day, o.remake_reason
    FROM orders o, w
   WHERE o.lab_organization_id = $1
     AND o.remake_of IS NOT NULL
     AND o.status <> 'canceled'
     AND o.created_at >= (w.today - 364)::timestamp AT TIME ZONE 'UTC'
     AND o.created_at < (w.today + 1)::timestamp AT TIME ZONE 'UTC'
)
SELECT 'turnaround' AS kind, d.turnaround_days::text AS key,
       COALESCE(sum(d.shipped) FILTER (WHERE d.day > w.today - 30), 0)::int AS a,
       COALESCE(sum(d.shipped) FILTER (WHERE d.day > w.today - 90), 0)::int AS b,
       sum(d.shipped)::int AS c,
       COALESCE(sum(d.due_counted) FILTER (WHERE d.day > w.today - 30), 0)::int AS d,
       COALESCE(sum(d.due_counted) FILTER (WHERE d.day > w.today - 90), 0)::int AS e,
       sum(d.due_counted)::int AS f,
       COALESCE(sum(d.on_time) FILTER (WHERE d.day > w.today - 30), 0)::int AS g,
       COALESCE(sum(d.on_time) FILTER (WHERE d.day > w.today - 90), 0)::int AS h,
       sum(d.on_time)::int AS i
  FROM d, w
 GROUP BY d.turnaround_days
UNION ALL
SELECT 'remakes', r.remake_reason,
       count(*) FILTER (WHERE r.day > w.today - 30)::int,
       count(*) FILTER (WHERE r.day > w.today - 90)::int,
       count(*)::int, 0, 0, 0, 0, 0, 0
  FROM r, w
 GROUP BY r.remake_reason
UNION ALL
SELECT 'week', to_char(date_trunc('week', d.day::timestamp), 'YYYY-MM-DD'),
       sum(d.shipped)::int, sum(d.due_counted)::int, sum(d.on_time)::int, 0, 0, 0, 0, 0, 0
  FROM d, w
 WHERE d.day >= w.trend_start
 GROUP BY 2
UNION ALL
SELECT 'weekRemakes', to_char(date_trunc('week', r.day::timestamp), 'YYYY-MM-DD'), count(*)::int, 0, 0, 0, 0, 0, 0, 0, 0
  FROM r, w
 WHERE r.day >= w.trend_start
 GROUP BY 2`;

/** Drops a laboratory's kept scorecard and bumps its version, so a computation that began before this stays unkept. */
const TOUCH_SCORECARD = `INSERT INTO lab_scorecards AS s (lab_organization_id, version)
       VALUES ($1, 1)
       ON CONFLICT (lab_organization_id) DO UPDATE
          SET version = s.version + 1, as_of = NULL, figures = NULL`;

export const scorecardsRepository = {
  /** The laboratory behind one of the clinic's partnerships (any status, once a laboratory is named), with its kept card. */
  async labOfPartnership(db: Queryable, clinicOrgId: number, partnerCode: string) {
    const [row] = await db.query<LabRow>(
      `SELECT o.id, o.code, o.name, s.version, to_char(s.as_of, 'YYYY-MM-DD') AS as_of, s.figures
         FROM partnerships p
         JOIN organizations o ON o.id = p.lab_organization_id
         LEFT JOIN lab_scorecards s ON s.lab_organization_id = o.id
        WHERE p.code = $1 AND p.clinic_organization_id = $2`,
      [partnerCode, clinicOrgId],
    );
    return row;
  },
  /** The caller's own laboratory, with its kept card. */
  async lab(db: Queryable, labOrgId: number) {
    const [row] = await db.query<LabRow>(
      `SELECT o.id, o.code, o.name, s.version, to_char(s.as_of, 'YYYY-MM-DD') AS as_of, s.figures
         FROM organizations o
         LEFT JOIN lab_scorecards s ON s.lab_organization_id = o.id
        WHERE o.id = $1`,
      [labOrgId],
    );
    return row;
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
  /**
   * Keeps a freshly computed card, unless the laboratory's figures changed since `version` was read (a shipment or a
   * remake bumped it meanwhile): then the next reader computes it again.
   */
  async keep(db: Queryable, labOrgId: number, version: number, asOf: string, figures: unknown) {
    await db.query(
      `WITH kept AS (
         UPDATE lab_scorecards
            SET as_of = $3::date, figures = $4::jsonb
          WHERE lab_organization_id = $1 AND version = $2
         RETURNING 1
       )
       INSERT INTO lab_scorecards (lab_organization_id, version, as_of, figures)
       SELECT $1, $2, $3::date, $4::jsonb
        WHERE $2 = 0 AND NOT EXISTS (SELECT 1 FROM kept)
       ON CONFLICT (lab_organization_id) DO NOTHING`,
      [labOrgId, version, asOf, JSON.stringify(figures)],
    );
  },
  async tallies(db: Queryable, labOrgId: number, today: string, trendStart: string): Promise<ScorecardTallies> {
    const rows = await db.query<TallyRow>(TALLIES, [labOrgId, today, trendStart]);
    const out: ScorecardTallies = { turnaround: [], remakes: [], weeks: [] };
    const week = (weekStart: string) => {
      let wk = out.weeks.find((x) => x.weekStart === weekStart);
      if (!wk) {
        wk = { weekStart, shipped: 0, dueCounted: 0, onTime: 0, remakes: 0 };
        out.weeks.push(wk);
      }
      return wk;
    };
    for (const r of rows) {
      const triple = (x: number, y: number, z: number): WindowCounts => [x, y, z];
      if (r.kind === 'turnaround') {
        out.turnaround.push({
          days: Number(r.key),
          shipped: triple(r.a, r.b, r.c),
          dueCounted: triple(r.d, r.e, r.f),
          onTime: triple(r.g, r.h, r.i),
        });
      } else if (r.kind === 'remakes') {
        out.remakes.push({ reason: r.key as RemakeReason, count: triple(r.a, r.b, r.c) });
      } else if (r.kind === 'week') {
        Object.assign(week(r.key), { shipped: r.a, dueCounted: r.b, onTime: r.c });
      } else {
        week(r.key).remakes = r.a;
      }
    }
    return out;
  },
};
