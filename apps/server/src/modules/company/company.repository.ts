import type { Queryable } from '../../platform/db.js';

export interface CompanyRow {
  id: number;
  code: string;
  name: string;
  abbreviation: string | null;
  type: number;
  region: string;
  status: number;
  logo: string | null;
  license_image: string | null;
  license_code: string | null;
  representative_name: string | null;
  phone: string | null;
  email: string | null;
  country_area_id: string | null;
  country: string | null;
  state_area_id: string | null;
  state: string | null;
  city_area_id: string | null;
  city: string | null;
  district: string | null;
  postal_code: string | null;
  address: string | null;
  closed_at: Date | null;
  default_tooth_numbering: string | null;
  scan_retention_days: number;
}

/** Order statuses that keep an organization from closing: the order still has work or delivery ahead. */
export const OPEN_ORDER_STATUSES = ['pending', 'accepted', 'ready', 'shipped'];

export const companyRepository = {
  async find(db: Queryable, organizationId: number, opts: { lock?: boolean } = {}) {
    const [row] = await db.query<CompanyRow>(
      `SELECT id, code, name, abbreviation, type, region, status, logo, license_image, license_code,
              representative_name, phone, email, country_area_id, country, state_area_id, state, city_area_id,
              city, district, postal_code, address, closed_at, default_tooth_numbering, scan_retention_days
         FROM organizations
        WHERE id = $1
        ${opts.lock ? 'FOR UPDATE' : ''}`,
      [organizationId],
    );
    return row;
  },

  async idByCode(db: Queryable, code: string) {
    const [row] = await db.query<{ id: number }>(
      `SELECT id
         FROM organizations
        WHERE code = $1`,
      [code],
    );
    return row ? Number(row.id) : undefined;
  },

  async findByCode(db: Queryable, code: string) {
    const [row] = await db.query<{ id: number; status: number; closed_at: Date | null; name: string }>(
      `SELECT id, status, closed_at, name
         FROM organizations
        WHERE code = $1
        FOR UPDATE`,
      [code],
    );
    return row;
  },

  /** The areas directly under `parentId` (the countries of `region` when it is null), by name. */
  async areas(db: Queryable, parentId: string | null, region: string) {
    return db.query<{ id: string; name: string; level: number; has_children: boolean }>(
      `SELECT a.id, a.name, a.level,
              EXISTS (SELECT 1 FROM areas c WHERE c.parent_id = a.id) AS has_children
         FROM areas a
        WHERE ($1::text IS NULL AND a.parent_id IS NULL AND a.region = $2)
           OR a.parent_id = $1
        ORDER BY a.name`,
      [parentId, region],
    );
  },

  async area(db: Queryable, id: string) {
    const [row] = await db.query<{ id: string; parent_id: string | null; name: string; level: number; region: string }>(
      `SELECT id, parent_id, name, level, region
         FROM areas
        WHERE id = $1`,
      [id],
    );
    return row;
  },

  async hasChildAreas(db: Queryable, id: string) {
    const [row] = await db.query<{ yes: boolean }>(`SELECT EXISTS (SELECT 1 FROM areas WHERE parent_id = $1) AS yes`, [
      id,
    ]);
    return Boolean(row?.yes);
  },

  /** The organization's orders that still have work or delivery ahead, with the partner's name. */
  async openOrders(db: Queryable, organizationId: number) {
    return db.query<{ code: string; status: string; partner: string }>(
      `SELECT o.code, o.status, p.name AS partner
         FROM orders o
         JOIN organizations p
           ON p.id = CASE WHEN o.clinic_organization_id = $1 THEN o.lab_organization_id ELSE o.clinic_organization_id END
        WHERE (o.clinic_organization_id = $1 OR o.lab_organization_id = $1)
          AND o.status = ANY ($2::text[])
        ORDER BY o.created_at, o.id`,
      [organizationId, OPEN_ORDER_STATUSES],
    );
  },

  /** Closed organizations whose retention is over. */
  async dueForPurge(db: Queryable, retentionDays: number) {
    const rows = await db.query<{ id: number }>(
      `SELECT id
         FROM organizations
        WHERE status = 3
          AND closed_at < now() - make_interval(days => $1)
        ORDER BY closed_at`,
      [retentionDays],
    );
    return rows.map((r) => Number(r.id));
  },

  /** Locks a closed organization whose retention is over, for its purge (not one restored meanwhile). */
  async lockDue(db: Queryable, organizationId: number, retentionDays: number) {
    const [row] = await db.query<{ id: number; logo: string | null; license_image: string | null }>(
      `SELECT id, logo, license_image
         FROM organizations
        WHERE id = $1
          AND status = 3
          AND closed_at < now() - make_interval(days => $2)
        FOR UPDATE`,
      [organizationId, retentionDays],
    );
    return row;
  },

  /** Whether the purge of the organization is queued or running already. */
  async purgeQueued(db: Queryable, organizationId: number) {
    const rows = await db.query(
      `SELECT 1
         FROM jobs
        WHERE kind = 'purgeOrganization'
          AND payload->>'organizationId' = $1::text
          AND status IN ('queued', 'running')`,
      [organizationId],
    );
    return rows.length > 0;
  },
};
