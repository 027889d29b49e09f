import { OrgType } from '@portal/contracts';
import { pageOf, sqlPageAndTotal, type Queryable } from '../../platform/db.js';

export interface NewOrganization {
  code: string;
  name: string;
  type: number;
  region: string;
  reviewStatus: number;
  language: string;
  email: string;
  phone?: string | null;
  abbreviation?: string | null;
  licenseCode?: string | null;
  representativeName?: string | null;
  country?: string | null;
  state?: string | null;
  city?: string | null;
  district?: string | null;
  postalCode?: string | null;
  address?: string | null;
}

/** What an organization edits of its own information (own space → Organization). */
export interface OrganizationEdit {
  name: string;
  abbreviation: string | null;
  licenseCode: string | null;
  representativeName: string | null;
  phone: string | null;
  email: string | null;
  countryAreaId: string;
  country: string;
  stateAreaId: string | null;
  state: string | null;
  cityAreaId: string | null;
  city: string | null;
  district: string | null;
  postalCode: string | null;
  address: string | null;
  /** undefined leaves it as it is; null follows where the organization works. */
  defaultToothNumbering?: string | null;
}

export const organizationsRepository = {
  async insert(db: Queryable, o: NewOrganization): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO organizations (code, name, type, region, review_status, language, email, phone, abbreviation, license_code,
                                  representative_name, country, state, city, district, postal_code, address)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id`,
      [
        o.code,
        o.name,
        o.type,
        o.region,
        o.reviewStatus,
        o.language,
        o.email,
        o.phone ?? null,
        o.abbreviation ?? null,
        o.licenseCode ?? null,
        o.representativeName ?? null,
        o.country ?? null,
        o.state ?? null,
        o.city ?? null,
        o.district ?? null,
        o.postalCode ?? null,
        o.address ?? null,
      ],
    );
    return Number(row!.id);
  },

  async listForReview(db: Queryable, reviewStatus: number, limit: number, offset: number) {
    const from = `FROM organizations o
         JOIN LATERAL (SELECT account, email, status FROM users WHERE organization_id = o.id AND is_org_admin ORDER BY id LIMIT 1) u ON true
        WHERE o.type = 3 AND o.review_status = $1`;
    const rows = await db.query<{
      id: number;
      code: string;
      name: string;
      region: string;
      license_code: string | null;
      representative_name: string | null;
      country: string | null;
      city: string | null;
      account: string;
      email: string;
      user_status: number;
      review_status: number;
      review_reason: string | null;
      created_at: Date;
      total: number;
    }>(
      sqlPageAndTotal(
        from,
        `SELECT o.id, o.code, o.name, o.region, o.license_code, o.representative_name, o.country, o.city, o.review_status,
                o.review_reason, o.created_at, u.account, u.email, u.status AS user_status
           ${from}
          ORDER BY o.created_at DESC, o.id DESC LIMIT $2 OFFSET $3`,
      ),
      [reviewStatus, limit, offset],
    );
    return pageOf(rows);
  },

  /** Decides a pending review once: a conditional update, so two reviewers cannot both decide. */
  async decideReview(db: Queryable, code: string, reviewStatus: number, reason: string | null, reviewerId: number) {
    const [row] = await db.query<{ id: number; name: string; language: string }>(
      `UPDATE organizations SET review_status = $2, review_reason = $3, reviewed_at = now(), reviewed_by = $4, updated_at = now()
        WHERE code = $1 AND type = 3 AND review_status = 0 RETURNING id, name, language`,
      [code, reviewStatus, reason, reviewerId],
    );
    return row;
  },

  async findByCode(db: Queryable, code: string) {
    const [row] = await db.query<{ id: number; type: number; review_status: number; name: string }>(
      `SELECT id, type, review_status, name FROM organizations WHERE code = $1`,
      [code],
    );
    return row;
  },

  async admins(db: Queryable, organizationId: number) {
    return db.query<{ email: string; language: string; display_name: string }>(
      `SELECT email, language, display_name FROM users WHERE organization_id = $1 AND is_org_admin`,
      [organizationId],
    );
  },

  /** Every organization but the portal's own (the super administrator's), a page at a time, with its users and stored bytes. */
  async list(
    db: Queryable,
    q: { keyword?: string; type?: number; status?: number; region?: string; limit: number; offset: number },
  ) {
    const where = `WHERE o.type <> ${OrgType.Inner}
          AND ($1::text IS NULL OR starts_with(lower(o.name), lower($1)) OR o.code = $1)
          AND ($2::smallint IS NULL OR o.type = $2)
          AND ($3::smallint IS NULL OR o.status = $3)
          AND ($4::text IS NULL OR o.region = $4)`;
    const rows = await db.query<{
      id: number;
      code: string;
      name: string;
      type: number;
      region: string;
      status: number;
      review_status: number;
      users: number;
      used_bytes: string | null;
      created_at: Date;
      closed_at: Date | null;
      total: number;
    }>(
      sqlPageAndTotal(
        `FROM organizations o ${where}`,
        `SELECT o.id, o.code, o.name, o.type, o.region, o.status, o.review_status, o.created_at, o.closed_at, s.used_bytes,
                (SELECT count(*)::int FROM users u WHERE u.organization_id = o.id AND u.deleted_at IS NULL) AS users
           FROM organizations o LEFT JOIN storage_accounts s ON s.organization_id = o.id
          ${where}
          ORDER BY o.created_at DESC, o.id DESC
          LIMIT $5 OFFSET $6`,
      ),
      [q.keyword ?? null, q.type ?? null, q.status ?? null, q.region ?? null, q.limit, q.offset],
    );
    return pageOf(rows);
  },

  /** The organizations of the codes, locked, with their type (for the rules of a batch). */
  async findManyByCodes(db: Queryable, codes: string[]) {
    return db.query<{ id: number; code: string; type: number; status: number; name: string }>(
      `SELECT id, code, type, status, name FROM organizations WHERE code = ANY ($1::text[]) ORDER BY id FOR UPDATE`,
      [codes],
    );
  },

  async setStatus(db: Queryable, ids: number[], status: number) {
    const rows = await db.query<{ id: number }>(
      `UPDATE organizations SET status = $2, updated_at = now() WHERE id = ANY ($1::bigint[]) AND status <> $2 RETURNING id`,
      [ids, status],
    );
    return rows.length;
  },

  async setScanRetention(db: Queryable, organizationId: number, days: number) {
    await db.query(`UPDATE organizations SET scan_retention_days = $2, updated_at = now() WHERE id = $1`, [
      organizationId,
      days,
    ]);
  },

  async updateInformation(db: Queryable, organizationId: number, e: OrganizationEdit) {
    await db.query(
      `UPDATE organizations
          SET name = $2, abbreviation = $3, license_code = $4, representative_name = $5, phone = $6, email = $7,
              country_area_id = $8, country = $9, state_area_id = $10, state = $11, city_area_id = $12, city = $13,
              district = $14, postal_code = $15, address = $16,
              default_tooth_numbering = CASE WHEN $17::boolean THEN $18 ELSE default_tooth_numbering END,
              updated_at = now()
        WHERE id = $1`,
      [
        organizationId,
        e.name,
        e.abbreviation,
        e.licenseCode,
        e.representativeName,
        e.phone,
        e.email,
        e.countryAreaId,
        e.country,
        e.stateAreaId,
        e.state,
        e.cityAreaId,
        e.city,
        e.district,
        e.postalCode,
        e.address,
        e.defaultToothNumbering !== undefined,
        e.defaultToothNumbering ?? null,
      ],
    );
  },

  /** Sets the stored key of the logo or the licence image; answers the key it replaced. */
  async setImage(db: Queryable, organizationId: number, column: 'logo' | 'license_image', key: string) {
    const [row] = await db.query<{ previous: string | null }>(
      `UPDATE organizations o
          SET ${column} = $2, updated_at = now()
         FROM (SELECT id, ${column} AS previous FROM organizations WHERE id = $1 FOR UPDATE) old
        WHERE o.id = old.id
        RETURNING old.previous`,
      [organizationId, key],
    );
    return row?.previous ?? null;
  },

  async markClosed(db: Queryable, organizationId: number, userId: number) {
    const [row] = await db.query<{ closed_at: Date }>(
      `UPDATE organizations
          SET status = 3, closed_at = now(), closed_by = $2, updated_at = now()
        WHERE id = $1
        RETURNING closed_at`,
      [organizationId, userId],
    );
    return row!.closed_at;
  },

  async reopen(db: Queryable, organizationId: number) {
    await db.query(
      `UPDATE organizations
          SET status = 1, closed_at = NULL, closed_by = NULL, updated_at = now()
        WHERE id = $1`,
      [organizationId],
    );
  },

  /** An organization that is being purged, last of all it held. */
  async delete(db: Queryable, organizationId: number) {
    await db.query(
      `DELETE FROM organizations
        WHERE id = $1`,
      [organizationId],
    );
  },
};
