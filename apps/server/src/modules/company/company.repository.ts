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
}

export interface CompanyEdit {
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
}

/** Order statuses that keep an organization from closing: the order still has work or delivery ahead. */
export const OPEN_ORDER_STATUSES = ['pending', 'accepted', 'ready', 'shipped'];

export const companyRepository = {
  async find(db: Queryable, organizationId: number, opts: { lock?: boolean } = {}) {
    const [row] = await db.query<CompanyRow>(
      `SELECT id, code, name, abbreviation, type, region, status, logo, license_image, license_code,
              representative_name, phone, email, country_area_id, country, state_area_id, state, city_area_id,
              city, district, postal_code, address, closed_at
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

  async update(db: Queryable, organizationId: number, e: CompanyEdit) {
    await db.query(
      `UPDATE organizations
          SET name = $2, abbreviation = $3, license_code = $4, representative_name = $5, phone = $6, email = $7,
              country_area_id = $8, country = $9, state_area_id = $10, state = $11, city_area_id = $12, city = $13,
              district = $14, postal_code = $15, address = $16, updated_at = now()
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

  async endSessions(db: Queryable, organizationId: number, reason: string) {
    await db.query(
      `UPDATE sessions
          SET revoked_at = now(), revoke_reason = $2
        WHERE revoked_at IS NULL
          AND user_id IN (SELECT id FROM users WHERE organization_id = $1)`,
      [organizationId, reason],
    );
  },

  /**
   * Ends every partnership of the organization that is temporary, applying or accepted: its partners see it
   * terminated, with an event saying why.
   */
  async endPartnerships(db: Queryable, organizationId: number, userId: number) {
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

  /** Queues the purge of an organization unless one is queued or running already. */
  async queuePurge(db: Queryable, organizationId: number) {
    const rows = await db.query(
      `INSERT INTO jobs (kind, payload)
       SELECT 'purgeOrganization', jsonb_build_object('organizationId', $1::bigint)
        WHERE NOT EXISTS (
          SELECT 1
            FROM jobs
           WHERE kind = 'purgeOrganization'
             AND payload->>'organizationId' = $1::text
             AND status IN ('queued', 'running')
        )
       RETURNING id`,
      [organizationId],
    );
    return rows.length > 0;
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

  /**
   * Deletes everything the organization holds, its orders with partners included (its cases go, and an order is
   * nothing without its case); answers the stored blobs whose rows went. Partners' bytes on those orders are
   * given back to their storage.
   */
  async purge(db: Queryable, organizationId: number): Promise<{ keys: string[]; uploads: string[] }> {
    const orderIds = (
      await db.query<{ id: number }>(
        `SELECT id
           FROM orders
          WHERE clinic_organization_id = $1 OR lab_organization_id = $1`,
        [organizationId],
      )
    ).map((r) => Number(r.id));
    const keys: string[] = [];
    const take = (rows: { key: string | null }[]) => keys.push(...rows.flatMap((r) => (r.key ? [r.key] : [])));

    take(
      await db.query<{ key: string }>(
        `SELECT storage_key AS key
           FROM order_attachments
          WHERE order_id = ANY ($1::bigint[])`,
        [orderIds],
      ),
    );
    await db.query(
      `UPDATE storage_accounts s
          SET used_bytes = GREATEST(0, s.used_bytes - a.bytes)
         FROM (SELECT organization_id, sum(size)::bigint AS bytes
                 FROM order_attachments
                WHERE order_id = ANY ($1::bigint[]) AND organization_id <> $2
                GROUP BY organization_id) a
        WHERE s.organization_id = a.organization_id`,
      [orderIds, organizationId],
    );
    await db.query(
      `DELETE FROM orders
        WHERE id = ANY ($1::bigint[])`,
      [orderIds],
    );
    for (const f of await db.query<{ storage_key: string; viewer_key: string | null }>(
      `DELETE FROM files
        WHERE organization_id = $1
        RETURNING storage_key, viewer_key`,
      [organizationId],
    ))
      keys.push(f.storage_key, ...(f.viewer_key ? [f.viewer_key] : []));
    const uploads = (
      await db.query<{ id: string }>(
        `DELETE FROM uploads
          WHERE organization_id = $1
          RETURNING id`,
        [organizationId],
      )
    ).map((r) => r.id);
    take(
      await db.query<{ key: string | null }>(
        `DELETE FROM exports
          WHERE organization_id = $1
          RETURNING storage_key AS key`,
        [organizationId],
      ),
    );
    await db.query(
      `DELETE FROM finished_uploads
        WHERE organization_id = $1`,
      [organizationId],
    );
    await db.query(
      `DELETE FROM cases
        WHERE organization_id = $1`,
      [organizationId],
    );
    await db.query(
      `DELETE FROM partnerships
        WHERE clinic_organization_id = $1 OR lab_organization_id = $1 OR initiator_organization_id = $1`,
      [organizationId],
    );
    // Events the organization's people wrote elsewhere stay, without naming who.
    await db.query(
      `UPDATE partnership_events
          SET actor_organization_id = NULL, actor_user_id = NULL
        WHERE actor_organization_id = $1`,
      [organizationId],
    );
    // The clinic's scanners go back to unactivated: their tokens end with the clinic.
    await db.query(
      `UPDATE device_tokens
          SET revoked_at = now()
        WHERE revoked_at IS NULL
          AND device_id IN (SELECT id FROM devices WHERE clinic_organization_id = $1)`,
      [organizationId],
    );
    await db.query(
      `UPDATE devices
          SET status = 'InActiveted', activated_at = NULL
        WHERE clinic_organization_id = $1`,
      [organizationId],
    );
    await db.query(
      `UPDATE devices
          SET clinic_organization_id = CASE WHEN clinic_organization_id = $1 THEN NULL ELSE clinic_organization_id END,
              dealer_organization_id = CASE WHEN dealer_organization_id = $1 THEN NULL ELSE dealer_organization_id END,
              oem_organization_id = CASE WHEN oem_organization_id = $1 THEN NULL ELSE oem_organization_id END
        WHERE $1 IN (clinic_organization_id, dealer_organization_id, oem_organization_id)`,
      [organizationId],
    );
    await db.query(
      `DELETE FROM users
        WHERE organization_id = $1`,
      [organizationId],
    );
    await db.query(
      `DELETE FROM organizations
        WHERE id = $1`,
      [organizationId],
    );
    return { keys, uploads };
  },
};
