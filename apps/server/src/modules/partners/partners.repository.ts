import { pageOf, sqlPageAndTotal, type Queryable } from '../../platform/db.js';

export interface PartnershipRow {
  id: number;
  code: string;
  clinic_organization_id: number;
  lab_organization_id: number | null;
  invited_email: string | null;
  status: number;
  initiator_organization_id: number;
  created_at: Date;
  updated_at: Date;
}

/** The other side of a partnership as either side shows it. */
export interface PartnerOrganizationRow {
  id: number;
  code: string;
  name: string;
  type: number;
  city: string | null;
  country: string | null;
}

export const partnersRepository = {
  /** An organization by its code, or by its invitation code (in any case). */
  async organization(db: Queryable, where: { code?: string; invitationCode?: string }) {
    const [row] = await db.query<PartnerOrganizationRow & { status: number; review_status: number }>(
      `SELECT id, code, name, type, city, country, status, review_status
         FROM organizations
        WHERE ${where.code ? 'code = $1' : 'invitation_code = upper($1)'}`,
      [where.code ?? where.invitationCode],
    );
    return row;
  },
  /**
   * Active, approved organizations of a type whose name contains the keyword (its LIKE wildcards escaped by the
   * caller), by name; at most 20.
   */
  async search(db: Queryable, type: number, keyword: string) {
    return db.query<Omit<PartnerOrganizationRow, 'id'>>(
      `SELECT code, name, type, city, country
         FROM organizations
        WHERE type = $1 AND status = 1 AND review_status = 1 AND name ILIKE '%' || $2 || '%'
        ORDER BY name
        LIMIT 20`,
      [type, keyword],
    );
  },
  async organizationsByIds(db: Queryable, ids: number[]) {
    return db.query<PartnerOrganizationRow>(
      'SELECT id, code, name, type, city, country FROM organizations WHERE id = ANY ($1::bigint[])',
      [ids],
    );
  },
  /** The organization (by a user's email, in any case) a user belongs to. */
  async organizationOfUserEmail(db: Queryable, email: string) {
    const [row] = await db.query<{ code: string; type: number }>(
      `SELECT o.code, o.type
         FROM users u
         JOIN organizations o ON o.id = u.organization_id
        WHERE lower(u.email) = lower($1)`,
      [email],
    );
    return row;
  },
  /** Locks a partnership's row for a change of status. */
  async lock(db: Queryable, id: number) {
    const [row] = await db.query<PartnershipRow>('SELECT * FROM partnerships WHERE id = $1 FOR UPDATE', [id]);
    return row;
  },
  async findById(db: Queryable, id: number) {
    const [row] = await db.query<PartnershipRow>('SELECT * FROM partnerships WHERE id = $1', [id]);
    return row;
  },
  /** The partnership of a clinic and a laboratory (the pair is unique). */
  async findPair(db: Queryable, clinicOrgId: number, labOrgId: number) {
    const [row] = await db.query<PartnershipRow>(
      'SELECT * FROM partnerships WHERE clinic_organization_id = $1 AND lab_organization_id = $2',
      [clinicOrgId, labOrgId],
    );
    return row;
  },
  async pairExists(db: Queryable, clinicOrgId: number, labOrgId: number) {
    const rows = await db.query(
      'SELECT 1 FROM partnerships WHERE clinic_organization_id = $1 AND lab_organization_id = $2',
      [clinicOrgId, labOrgId],
    );
    return rows.length > 0;
  },
  /** A partnership by code of which the organization is a side. */
  async findOfOrganization(db: Queryable, orgId: number, code: string) {
    const [row] = await db.query<PartnershipRow>(
      `SELECT *
         FROM partnerships
        WHERE code = $1 AND (clinic_organization_id = $2 OR lab_organization_id = $2)`,
      [code, orgId],
    );
    return row;
  },
  /** A new status of a partnership the caller has locked; an application (`apply`) makes the actor the initiator. */
  async setStatus(db: Queryable, id: number, to: number, apply: boolean, actorOrgId: number) {
    const [row] = await db.query<PartnershipRow>(
      `UPDATE partnerships
          SET status = $2, updated_at = now(), initiator_organization_id = CASE WHEN $3 THEN $4 ELSE initiator_organization_id END
        WHERE id = $1
        RETURNING *`,
      [id, to, apply, actorOrgId],
    );
    return row!;
  },
  async insert(
    db: Queryable,
    p: {
      code: string;
      clinicOrgId: number;
      labOrgId: number | null;
      status: number;
      initiatorOrgId: number;
      invitedEmail: string | null;
    },
  ) {
    const [row] = await db.query<PartnershipRow>(
      `INSERT INTO partnerships (code, clinic_organization_id, lab_organization_id, status, initiator_organization_id, invited_email)
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING *`,
      [p.code, p.clinicOrgId, p.labOrgId, p.status, p.initiatorOrgId, p.invitedEmail],
    );
    return row!;
  },
  /** The laboratory that confirmed an invitation becomes the partnership's laboratory. */
  async setLab(db: Queryable, id: number, labOrgId: number) {
    await db.query('UPDATE partnerships SET lab_organization_id = $2 WHERE id = $1', [id, labOrgId]);
  },
  async event(
    db: Queryable,
    e: {
      partnershipId: number;
      action: string;
      from: number | null;
      to: number;
      reason: string | null;
      userId: number;
      orgId: number;
    },
  ) {
    await db.query(
      `INSERT INTO partnership_events (partnership_id, action, from_status, to_status, reason, actor_user_id, actor_organization_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [e.partnershipId, e.action, e.from, e.to, e.reason, e.userId, e.orgId],
    );
  },
  /** A partnership's events, oldest first, with who acted. */
  async events(db: Queryable, partnershipId: number) {
    return db.query<{
      action: string;
      from_status: number | null;
      to_status: number;
      reason: string | null;
      actor: string | null;
      org: string | null;
      created_at: Date;
    }>(
      `SELECT e.action, e.from_status, e.to_status, e.reason, u.display_name AS actor, o.name AS org, e.created_at
         FROM partnership_events e
         LEFT JOIN users u ON u.id = e.actor_user_id
         LEFT JOIN organizations o ON o.id = e.actor_organization_id
        WHERE e.partnership_id = $1
        ORDER BY e.id`,
      [partnershipId],
    );
  },
  /**
   * A page of the organization's partnerships in some statuses, most recently changed first, and their total;
   * the keyword matches the other side's name (or the invited address).
   */
  async list(db: Queryable, orgId: number, statuses: number[], keyword: string | null, limit: number, offset: number) {
    const from = `FROM partnerships p
         LEFT JOIN organizations o ON o.id = CASE WHEN p.clinic_organization_id = $1 THEN p.lab_organization_id ELSE p.clinic_organization_id END
        WHERE (p.clinic_organization_id = $1 OR p.lab_organization_id = $1) AND p.status = ANY ($2::smallint[])
          AND ($3::text IS NULL OR COALESCE(o.name, p.invited_email) ILIKE '%' || $3 || '%')`;
    const rows = await db.query<PartnershipRow & { total: number }>(
      sqlPageAndTotal(
        from,
        `SELECT p.*
           ${from}
          ORDER BY p.updated_at DESC, p.id DESC
          LIMIT $4 OFFSET $5`,
      ),
      [orgId, statuses, keyword, limit, offset],
    );
    return pageOf(rows);
  },
  /** A clinic's invitation of a laboratory not registered yet, valid for some days. */
  async insertInvitation(db: Queryable, tokenHash: string, partnershipId: number, email: string, days: number) {
    await db.query(
      `INSERT INTO partner_invitations (token_hash, partnership_id, email, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
      [tokenHash, partnershipId, email, days],
    );
  },
  /** Locks an invitation by its token, so it is confirmed once. */
  async lockInvitation(db: Queryable, tokenHash: string) {
    const [row] = await db.query<{ partnership_id: number; expired: boolean; used_at: Date | null }>(
      `SELECT partnership_id, expires_at < now() AS expired, used_at
         FROM partner_invitations
        WHERE token_hash = $1
          FOR UPDATE`,
      [tokenHash],
    );
    return row;
  },
  async markInvitationUsed(db: Queryable, tokenHash: string) {
    await db.query('UPDATE partner_invitations SET used_at = now() WHERE token_hash = $1', [tokenHash]);
  },
  /**
   * Ends every partnership of the organization that is temporary, applying or accepted: its partners see it
   * terminated, with an event saying why.
   */
  async endAllOf(db: Queryable, organizationId: number, userId: number) {
    await db.query(
      `WITH live AS (
         SELECT id, status
           FROM partnerships
          WHERE (clinic_organization_id = $1 OR lab_organization_id = $1)
            AND status IN (-2, 0, 1)
          FOR UPDATE
       ), ended AS (
         UPDATE partnerships p
            SET status = 4, updated_at = now()
           FROM live
          WHERE p.id = live.id
          RETURNING p.id, live.status AS from_status
       )
       INSERT INTO partnership_events (partnership_id, action, from_status, to_status, reason, actor_user_id, actor_organization_id)
       SELECT id, 'organization_closed', from_status, 4, NULL, $2, $1
         FROM ended`,
      [organizationId, userId],
    );
  },
  /**
   * An organization that is being purged: its partnerships go; the events its people wrote on other partnerships
   * stay, without naming who.
   */
  async deleteOfOrganization(db: Queryable, organizationId: number) {
    await db.query(
      `DELETE FROM partnerships
        WHERE clinic_organization_id = $1 OR lab_organization_id = $1 OR initiator_organization_id = $1`,
      [organizationId],
    );
    await db.query(
      `UPDATE partnership_events
          SET actor_organization_id = NULL, actor_user_id = NULL
        WHERE actor_organization_id = $1`,
      [organizationId],
    );
  },
};
