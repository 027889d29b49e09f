import { pageOf, sqlPageAndTotal, type Queryable } from '../../platform/db.js';

export interface EntryRow {
  id: number;
  version: string;
  release_date: string;
  language: string;
  title: string;
  html: string;
}

export interface TextRow {
  language: string;
  title: string;
  markdown: string;
  html: string;
}

export interface UsageCount {
  screen: string;
  kind: 'screen' | 'action';
  action: string;
  events: number;
  loadMsTotal: number;
  loadSamples: number;
}

/**
 * One text per entry: the reader's language when the entry has it, else English (every entry has English).
 * `$1` is the reader's language.
 */
const READER_TEXT = `JOIN LATERAL (
         SELECT t.language, t.title, t.html
           FROM update_log_texts t
          WHERE t.entry_id = e.id
            AND t.language IN ($1, 'en')
          ORDER BY (t.language = $1) DESC
          LIMIT 1
       ) t ON true`;
const NEWEST_FIRST = 'ORDER BY e.released_on DESC, e.id DESC';

export const softwareRepository = {
  /** A page of the entries, newest first, each in the reader's language, and how many there are. */
  async page(db: Queryable, language: string, limit: number, offset: number) {
    const rows = await db.query<EntryRow & { total: number }>(
      sqlPageAndTotal(
        'FROM update_log_entries',
        `SELECT e.id, e.version, to_char(e.released_on, 'YYYY-MM-DD') AS release_date, t.language, t.title, '' AS html
           FROM update_log_entries e
           ${READER_TEXT}
          ${NEWEST_FIRST}
          LIMIT $2 OFFSET $3`,
      ),
      [language, limit, offset],
    );
    return pageOf(rows);
  },

  async find(db: Queryable, id: number, language: string): Promise<EntryRow | undefined> {
    const [row] = await db.query<EntryRow>(
      `SELECT e.id, e.version, to_char(e.released_on, 'YYYY-MM-DD') AS release_date, t.language, t.title, t.html
         FROM update_log_entries e
         ${READER_TEXT}
        WHERE e.id = $2`,
      [language, id],
    );
    return row;
  },

  /** A page of the entries with the languages each is written in, for the super administrator's list. */
  async adminPage(db: Queryable, limit: number, offset: number) {
    const rows = await db.query<EntryRow & { languages: string[]; total: number }>(
      sqlPageAndTotal(
        'FROM update_log_entries',
        `SELECT e.id, e.version, to_char(e.released_on, 'YYYY-MM-DD') AS release_date, t.language, t.title, '' AS html,
                (SELECT array_agg(x.language ORDER BY x.language)
                   FROM update_log_texts x
                  WHERE x.entry_id = e.id) AS languages
           FROM update_log_entries e
           ${READER_TEXT}
          ${NEWEST_FIRST}
          LIMIT $2 OFFSET $3`,
      ),
      ['en', limit, offset],
    );
    return pageOf(rows);
  },

  async entry(
    db: Queryable,
    id: number,
  ): Promise<{ id: number; version: string; release_date: string; updated_at: Date } | undefined> {
    const [row] = await db.query<{ id: number; version: string; release_date: string; updated_at: Date }>(
      `SELECT id, version, to_char(released_on, 'YYYY-MM-DD') AS release_date, updated_at
         FROM update_log_entries
        WHERE id = $1`,
      [id],
    );
    return row;
  },

  async texts(db: Queryable, id: number): Promise<TextRow[]> {
    return db.query<TextRow>(
      `SELECT language, title, markdown, html
         FROM update_log_texts
        WHERE entry_id = $1
        ORDER BY language`,
      [id],
    );
  },

  async insert(db: Queryable, version: string, releaseDate: string): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO update_log_entries (version, released_on)
       VALUES ($1, $2)
       RETURNING id`,
      [version, releaseDate],
    );
    return Number(row!.id);
  },

  /** Answers whether the entry exists. */
  async update(db: Queryable, id: number, version: string, releaseDate: string): Promise<boolean> {
    const rows = await db.query(
      `UPDATE update_log_entries
          SET version = $2, released_on = $3, updated_at = now()
        WHERE id = $1
        RETURNING 1`,
      [id, version, releaseDate],
    );
    return rows.length === 1;
  },

  /** The entry's texts become exactly these. */
  async replaceTexts(db: Queryable, id: number, texts: TextRow[]): Promise<void> {
    await db.query(`DELETE FROM update_log_texts WHERE entry_id = $1`, [id]);
    await db.query(
      `INSERT INTO update_log_texts (entry_id, language, title, markdown, html)
       SELECT $1, x.language, x.title, x.markdown, x.html
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS x (language, title, markdown, html)`,
      [
        id,
        texts.map((t) => t.language),
        texts.map((t) => t.title),
        texts.map((t) => t.markdown),
        texts.map((t) => t.html),
      ],
    );
  },

  async delete(db: Queryable, ids: number[]): Promise<number> {
    const rows = await db.query(
      `DELETE FROM update_log_entries
        WHERE id = ANY($1::bigint[])
        RETURNING 1`,
      [ids],
    );
    return rows.length;
  },

  /** The newest entry and whether the user has opened it. */
  async mark(db: Queryable, userId: number): Promise<{ latestId: number | null; unseen: boolean }> {
    const [row] = await db.query<{ id: number; seen: boolean }>(
      `SELECT e.id,
              EXISTS (SELECT 1 FROM update_log_reads r WHERE r.user_id = $1 AND r.entry_id = e.id) AS seen
         FROM update_log_entries e
        ${NEWEST_FIRST}
        LIMIT 1`,
      [userId],
    );
    return row ? { latestId: Number(row.id), unseen: !row.seen } : { latestId: null, unseen: false };
  },

  /** Answers whether the entry exists. */
  async markRead(db: Queryable, userId: number, entryId: number): Promise<boolean> {
    const rows = await db.query(
      `INSERT INTO update_log_reads (user_id, entry_id)
       SELECT $1, e.id FROM update_log_entries e WHERE e.id = $2
       ON CONFLICT (user_id, entry_id) DO UPDATE SET read_at = now()
       RETURNING 1`,
      [userId, entryId],
    );
    return rows.length === 1;
  },

  /** Adds a batch's counts to the current week's (one row per week, screen, kind and action; nobody named). */
  async addUsage(db: Queryable, counts: UsageCount[]): Promise<void> {
    await db.query(
      `INSERT INTO usage_weekly AS w (week_start, screen, kind, action, events, load_ms_total, load_samples)
       SELECT date_trunc('week', now() AT TIME ZONE 'UTC')::date, x.screen, x.kind, x.action, x.events, x.load_ms_total,
              x.load_samples
         FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
              AS x (screen, kind, action, events, load_ms_total, load_samples)
       ON CONFLICT (week_start, screen, kind, action) DO UPDATE
          SET events = w.events + EXCLUDED.events,
              load_ms_total = w.load_ms_total + EXCLUDED.load_ms_total,
              load_samples = w.load_samples + EXCLUDED.load_samples`,
      [
        counts.map((c) => c.screen),
        counts.map((c) => c.kind),
        counts.map((c) => c.action),
        counts.map((c) => c.events),
        counts.map((c) => c.loadMsTotal),
        counts.map((c) => c.loadSamples),
      ],
    );
  },

  async weekly(
    db: Queryable,
    weeks: number,
    screen: string | null,
  ): Promise<
    Array<{ week_start: string; screen: string; screen_opens: string; actions: string; average_load_ms: string | null }>
  > {
    return db.query(
      `SELECT to_char(week_start, 'YYYY-MM-DD') AS week_start, screen,
              sum(events) FILTER (WHERE kind = 'screen') AS screen_opens,
              sum(events) FILTER (WHERE kind = 'action') AS actions,
              round(sum(load_ms_total)::numeric / NULLIF(sum(load_samples), 0)) AS average_load_ms
         FROM usage_weekly
        WHERE week_start > (date_trunc('week', now() AT TIME ZONE 'UTC') - make_interval(weeks => $1::int))::date
          AND ($2::text IS NULL OR screen = $2)
        GROUP BY week_start, screen
        ORDER BY week_start DESC, screen_opens DESC NULLS LAST, screen`,
      [weeks, screen],
    );
  },
};
