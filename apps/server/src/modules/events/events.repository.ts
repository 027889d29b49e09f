import type { Queryable } from '../../platform/db.js';

export interface EventRow {
  position: number;
  organization_id: number;
  user_id: number | null;
  permission: string | null;
  kind: string;
  subject: string | null;
  data: Record<string, unknown>;
  created_at: string;
}

export interface NewEvent {
  organizationId: number;
  userId?: number | null;
  permission?: string | null;
  kind: string;
  subject?: string | null;
  data?: Record<string, unknown>;
}

/** One key for the position giver: two processes giving positions at once would publish them out of order. */
const POSITION_LOCK = 7_316_485_201;

const COLUMNS = `position::int8 AS position, organization_id, user_id, permission, kind, subject, data,
                 to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;

export const eventsRepository = {
  /** Writes events in the caller's transaction; the commit wakes the position giver of every process. */
  async insert(tx: Queryable, events: NewEvent[]) {
    await tx.query(
      `INSERT INTO events (organization_id, user_id, permission, kind, subject, data)
       SELECT e.organization_id, e.user_id, e.permission, e.kind, e.subject, coalesce(e.data, '{}')
         FROM jsonb_to_recordset($1::jsonb)
           AS e(organization_id bigint, user_id bigint, permission text, kind text, subject text, data jsonb)`,
      [
        JSON.stringify(
          events.map((e) => ({
            organization_id: e.organizationId,
            user_id: e.userId ?? null,
            permission: e.permission ?? null,
            kind: e.kind,
            subject: e.subject ?? null,
            data: e.data ?? {},
          })),
        ),
      ],
    );
    await tx.query(`SELECT pg_notify('events_written', '')`);
  },

  /**
   * Gives positions, in one transaction holding the position lock, to the waiting events it sees committed: positions
   * are handed out one giver at a time, each after the last one's commit, so they follow the commits, and an event
   * whose transaction commits later gets a later position (a client that saw 101 has seen 100). Answers how many were
   * given.
   */
  async position(tx: Queryable, limit: number): Promise<number> {
    await tx.query(`SELECT pg_advisory_xact_lock($1)`, [POSITION_LOCK]);
    const [row] = await tx.query<{ last: number | null; given: number }>(
      `WITH given AS (
         UPDATE events e SET position = s.position
           FROM (SELECT id, nextval('event_positions') AS position
                   FROM (SELECT id FROM events
                          WHERE position IS NULL
                          ORDER BY id LIMIT $1) w) s
          WHERE e.id = s.id
         RETURNING e.position)
       SELECT max(position)::int8 AS last, count(*)::int AS given FROM given`,
      [limit],
    );
    const given = Number(row?.given ?? 0);
    if (given) await tx.query(`SELECT pg_notify('events_positioned', $1)`, [String(row!.last)]);
    return given;
  },

  /** Positioned events after a position, in order (what every process sends to its sockets). */
  async after(db: Queryable, position: number, limit: number): Promise<EventRow[]> {
    return db.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE position > $1 ORDER BY position LIMIT $2`, [
      position,
      limit,
    ]);
  },

  /** What one member missed since a position: their organization's events and their own. */
  async missed(db: Queryable, organizationId: number, userId: number, position: number, limit: number) {
    return db.query<EventRow>(
      `SELECT ${COLUMNS} FROM events
        WHERE organization_id = $1 AND position > $3 AND (user_id IS NULL OR user_id = $2)
        ORDER BY position LIMIT $4`,
      [organizationId, userId, position, limit],
    );
  },

  /**
   * The highest position given so far (0 when none), and the lowest still kept (one above the highest when every
   * event was forgotten): a client that saw less than `first - 1` missed events no longer kept.
   */
  async bounds(db: Queryable): Promise<{ last: number; first: number }> {
    const [row] = await db.query<{ last: number; first: number | null }>(
      `SELECT (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM event_positions)::int8 AS last,
              (SELECT min(position) FROM events)::int8 AS first`,
    );
    const last = Number(row?.last ?? 0);
    return { last, first: row?.first === null || row?.first === undefined ? last + 1 : Number(row.first) };
  },

  /** Forgets events older than the time kept (the housekeeping's). */
  async deleteBefore(db: Queryable, before: Date): Promise<number> {
    const rows = await db.query(`DELETE FROM events WHERE created_at < $1 AND position IS NOT NULL RETURNING 1`, [
      before,
    ]);
    return rows.length;
  },
};
