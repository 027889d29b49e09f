import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Harness } from './harness.js';

/**
 * Everything a request could change: every table of the database (row count and a checksum of its rows) and the
 * data folder (every file's name and size: the file store, upload staging). A refused request must leave it equal.
 */
export interface State {
  tables: Record<string, { rows: number; checksum: string }>;
  files: Record<string, number>;
}

/**
 * Tables a refused request still changes, on purpose. Each is a count of attempts, and an attempt is counted
 * whatever else the request got wrong: that is what the count is for. Besides them, one cache: a scorecard read
 * keeps the card it computed, for the reader's own laboratory or the one it may see, and nothing of another's.
 */
export const COUNTED_ON_REFUSAL: Record<string, string> = {
  rate_limit_hits: 'the shared rate limits count every attempt, refused ones included, so lookups cannot be harvested',
  login_failures: 'a wrong password counts toward the sign-in lockout, whichever call it was given to',
  captchas: 'a captcha answers one sign-in attempt, right or wrong, and is then used up',
  lab_scorecards:
    "a laboratory's scorecard computed by a read is kept until its figures change (a cache, not a change)",
};

const statements = new WeakMap<Harness, string>();

/**
 * A row as compared, where not all of it: an event's position is given by the position giver of any process after
 * the commit (docs/architecture.md, "Events and live updates"), whichever request happens to be watched then.
 */
const ROW_TEXT: Record<string, string> = {
  events: '(t.id, t.organization_id, t.user_id, t.permission, t.kind, t.subject, t.data)::text',
};

/** One statement over every table: its row count and the md5 of its rows' text, in a fixed order. */
async function stateQuery(h: Harness): Promise<string> {
  let sql = statements.get(h);
  if (!sql) {
    const tables = await h.db.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    );
    sql = tables
      .map(({ name }) => {
        const row = ROW_TEXT[name] ?? 't::text';
        return `SELECT '${name}' AS name, count(*)::int AS rows,
                       md5(coalesce(string_agg(md5(${row}), '' ORDER BY md5(${row})), '')) AS checksum
                  FROM "${name}" t`;
      })
      .join(' UNION ALL ');
    statements.set(h, sql);
  }
  return sql;
}

function listFiles(root: string, dir = root, out: Record<string, number> = {}): Record<string, number> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(root, path, out);
    else {
      try {
        out[relative(root, path)] = statSync(path).size;
      } catch {
        // Removed between the listing and the stat: it is not there.
      }
    }
  }
  return out;
}

export async function tableState(h: Harness): Promise<State['tables']> {
  const rows = await h.db.query<{ name: string; rows: number; checksum: string }>(await stateQuery(h));
  return Object.fromEntries(rows.map((r) => [r.name, { rows: Number(r.rows), checksum: r.checksum }]));
}

/** The data folder: the file store and upload staging, every file's path and size. */
export const fileState = (h: Harness): State['files'] => listFiles(h.config.dataDir);

export async function stateSnapshot(h: Harness): Promise<State> {
  return { tables: await tableState(h), files: fileState(h) };
}

/**
 * Follows the state from request to request cheaply: the tables are read again only when a transaction ran (the
 * next transaction id moved), so a request that wrote nothing costs one small query and a folder listing.
 */
export class StateWatch {
  private state: State | undefined;
  private xid = '';
  constructor(private readonly h: Harness) {}

  private async nextXid() {
    const [row] = await this.h.db.query<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x');
    return row!.x;
  }

  /** Call before a request. */
  async before() {
    this.state ??= await stateSnapshot(this.h);
    this.xid = await this.nextXid();
  }

  /**
   * Waits until nothing is being written: some calls finish work after their answer (the mails of a batch of order
   * changes), which must not be taken for a change made by the next request.
   */
  async settle() {
    let xid = await this.nextXid();
    for (let i = 0; i < 100; i++) {
      await new Promise((r) => setTimeout(r, 10));
      const now = await this.nextXid();
      if (now === xid) return;
      xid = now;
    }
  }

  /** Call after it: what it changed (tables and files; see `stateChanges`). */
  async after(ignore: Record<string, string> = COUNTED_ON_REFUSAL): Promise<string[]> {
    const wrote = (await this.nextXid()) !== this.xid;
    if (wrote) await this.settle();
    const now: State = { tables: wrote ? await tableState(this.h) : this.state!.tables, files: fileState(this.h) };
    const changes = stateChanges(this.state!, now, ignore);
    this.state = now;
    return changes;
  }

  /** Something outside the watched requests changed the state (a test's own setup). */
  forget() {
    this.state = undefined;
  }
}

/**
 * What differs between two states ('table orders: rows 3 → 4', 'file files/ab/cd: added'), leaving out the tables
 * `ignore` names. Empty when nothing changed.
 */
export function stateChanges(before: State, after: State, ignore: Record<string, string> = COUNTED_ON_REFUSAL) {
  const changes: string[] = [];
  for (const name of new Set([...Object.keys(before.tables), ...Object.keys(after.tables)])) {
    if (name in ignore) continue;
    const a = before.tables[name];
    const b = after.tables[name];
    if (a?.rows !== b?.rows) changes.push(`table ${name}: rows ${a?.rows} → ${b?.rows}`);
    else if (a?.checksum !== b?.checksum) changes.push(`table ${name}: rows changed`);
  }
  for (const name of new Set([...Object.keys(before.files), ...Object.keys(after.files)])) {
    const a = before.files[name];
    const b = after.files[name];
    if (a === undefined) changes.push(`file ${name}: added`);
    else if (b === undefined) changes.push(`file ${name}: removed`);
    else if (a !== b) changes.push(`file ${name}: ${a} → ${b} bytes`);
  }
  return changes;
}
