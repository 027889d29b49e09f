import type { Queryable } from '../../platform/db.js';
import type { IdentifierKind } from './sign-in-identifiers.js';

export interface DisputeRow {
  identifier: string;
  kind: IdentifierKind;
  found_at: Date;
  user_code: string;
  account: string;
  display_name: string;
  organization_name: string;
}

export interface OrganizationPlace {
  country_area_id: string | null;
  country: string | null;
  region: string;
}

export const signInIdentifiersRepository = {
  /** The users the keys stand for: a disputed key counts each of its claimants. */
  async usersOf(db: Queryable, keys: string[]): Promise<number[]> {
    const rows = await db.query<{ user_id: number }>(
      `SELECT DISTINCT COALESCE(i.user_id, d.user_id) AS user_id
         FROM sign_in_identifiers i
         LEFT JOIN sign_in_disputes d ON i.user_id IS NULL AND d.identifier = i.identifier
        WHERE i.identifier = ANY ($1::text[])`,
      [keys],
    );
    return rows.filter((r) => r.user_id !== null).map((r) => Number(r.user_id));
  },

  /** Who holds a key now (undefined: free; null: disputed). */
  async holder(db: Queryable, key: string): Promise<number | null | undefined> {
    const [row] = await db.query<{ user_id: number | null }>(
      `SELECT user_id FROM sign_in_identifiers WHERE identifier = $1`,
      [key],
    );
    return row ? (row.user_id === null ? null : Number(row.user_id)) : undefined;
  },

  /** Frees the user's key of a kind, and their claim to disputed keys of that kind. */
  async release(db: Queryable, userId: number, kind: IdentifierKind) {
    await db.query(`DELETE FROM sign_in_identifiers WHERE user_id = $1 AND kind = $2`, [userId, kind]);
    await db.query(`DELETE FROM sign_in_disputes WHERE user_id = $1 AND kind = $2`, [userId, kind]);
  },

  async releaseAll(db: Queryable, userIds: number[]) {
    await db.query(`DELETE FROM sign_in_identifiers WHERE user_id = ANY ($1::bigint[])`, [userIds]);
    await db.query(`DELETE FROM sign_in_disputes WHERE user_id = ANY ($1::bigint[])`, [userIds]);
  },

  /**
   * Takes a key for a user unless someone holds it: true when taken. Two transactions claiming one key at once meet
   * at the primary key; the second waits for the first and gets nothing.
   */
  async claim(db: Queryable, userId: number, kind: IdentifierKind, key: string): Promise<boolean> {
    const rows = await db.query(
      `INSERT INTO sign_in_identifiers (identifier, user_id, kind) VALUES ($1, $2, $3)
       ON CONFLICT (identifier) DO NOTHING RETURNING identifier`,
      [key, userId, kind],
    );
    return rows.length > 0;
  },

  /** A key two users already held: nobody's until one of them gives it up; both recorded as claimants. */
  async dispute(db: Queryable, key: string, kind: IdentifierKind, userIds: number[]) {
    await db.query(`UPDATE sign_in_identifiers SET user_id = NULL WHERE identifier = $1`, [key]);
    await db.query(
      `INSERT INTO sign_in_disputes (identifier, user_id, kind)
       SELECT $1, u, $2 FROM unnest($3::bigint[]) AS u
       ON CONFLICT DO NOTHING`,
      [key, kind, userIds],
    );
  },

  /** A report entry: users whose identifiers of different kinds read alike (an account name that is another's phone). */
  async recordLookalike(db: Queryable, key: string, claimants: Array<{ userId: number; kind: IdentifierKind }>) {
    for (const c of claimants) {
      await db.query(
        `INSERT INTO sign_in_disputes (identifier, user_id, kind) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [key, c.userId, c.kind],
      );
    }
  },

  /** Account names made only of digits and separators (five digits or more), which read as phone numbers. */
  async phoneLikeAccounts(db: Queryable) {
    return db.query<OrganizationPlace & { id: number; account: string }>(
      `SELECT u.id, u.account, o.country_area_id, o.country, o.region
         FROM users u JOIN organizations o ON o.id = u.organization_id
        WHERE u.deleted_at IS NULL AND u.account ~ '^[0-9.-]+$' AND length(regexp_replace(u.account, '[^0-9]', '', 'g')) >= 5`,
    );
  },

  /** Disputed keys left with one claimant go to it; report entries left with one user are dropped. */
  async settle(db: Queryable) {
    await db.query(
      `UPDATE sign_in_identifiers i SET user_id = d.user_id, kind = d.kind
         FROM (SELECT identifier, min(user_id) AS user_id, min(kind) AS kind
                 FROM sign_in_disputes GROUP BY identifier HAVING count(*) = 1) d
        WHERE i.identifier = d.identifier AND i.user_id IS NULL
          AND NOT EXISTS (SELECT 1 FROM sign_in_identifiers o WHERE o.user_id = d.user_id AND o.kind = d.kind)`,
    );
    await db.query(
      `DELETE FROM sign_in_disputes d
        WHERE (SELECT count(*) FROM sign_in_disputes x WHERE x.identifier = d.identifier) = 1`,
    );
  },

  async disputes(db: Queryable): Promise<DisputeRow[]> {
    return db.query<DisputeRow>(
      `SELECT d.identifier, d.kind, d.found_at, u.user_code, u.account, u.display_name, o.name AS organization_name
         FROM sign_in_disputes d
         JOIN users u ON u.id = d.user_id
         JOIN organizations o ON o.id = u.organization_id
        ORDER BY d.identifier, u.id
        LIMIT 1000`,
    );
  },

  /** Users without keys yet (before the table existed), with what their keys are made from. */
  async usersWithoutKeys(db: Queryable, afterId: number, limit: number) {
    return db.query<
      OrganizationPlace & {
        id: number;
        account: string;
        email: string;
        phone: string | null;
      }
    >(
      `SELECT u.id, u.account, u.email, u.phone, o.country_area_id, o.country, o.region
         FROM users u JOIN organizations o ON o.id = u.organization_id
        WHERE u.id > $1 AND u.deleted_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM sign_in_identifiers i WHERE i.user_id = u.id)
        ORDER BY u.id
        LIMIT $2`,
      [afterId, limit],
    );
  },

  /** What the country an organization's phone numbers are read in is told from (`phoneRegion`). */
  async placeOfUser(db: Queryable, userId: number): Promise<OrganizationPlace | undefined> {
    const [row] = await db.query<OrganizationPlace>(
      `SELECT o.country_area_id, o.country, o.region FROM users u JOIN organizations o ON o.id = u.organization_id WHERE u.id = $1`,
      [userId],
    );
    return row;
  },

  async placeOfOrganization(db: Queryable, organizationId: number): Promise<OrganizationPlace | undefined> {
    const [row] = await db.query<OrganizationPlace>(
      `SELECT country_area_id, country, region FROM organizations WHERE id = $1`,
      [organizationId],
    );
    return row;
  },

  /** Where organizations are: the readings tried for a phone number typed without its country code. */
  async places(db: Queryable): Promise<OrganizationPlace[]> {
    return db.query<OrganizationPlace>(`SELECT DISTINCT country_area_id, country, region FROM organizations`);
  },
};
