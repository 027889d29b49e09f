import type { Queryable } from '../../platform/db.js';

export interface ProductRow {
  id: number;
  code: string;
  lab_organization_id: number;
  name: string;
  work_type: string;
  materials: string[];
  turnaround_days: number;
  price: string | null;
  currency: string | null;
  required_fields: string[];
}

export interface ProductValues {
  name: string;
  workType: string;
  materials: string[];
  turnaroundDays: number;
  price: number | null;
  currency: string | null;
  requiredFields: string[];
}

const PRODUCT_COLUMNS = `id, code, lab_organization_id, name, work_type, materials, turnaround_days, price::text AS price, currency,
       required_fields`;

export const catalogueRepository = {
  /** The live products of a laboratory, by name. */
  products(db: Queryable, labOrgId: number) {
    return db.query<ProductRow>(
      `SELECT ${PRODUCT_COLUMNS}
         FROM lab_products
        WHERE lab_organization_id = $1
          AND deleted_at IS NULL
        ORDER BY lower(name), id`,
      [labOrgId],
    );
  },
  /** A live product of the laboratory, or undefined (another laboratory's, removed, or unknown). */
  async product(db: Queryable, labOrgId: number, code: string, lock = false) {
    const [row] = await db.query<ProductRow>(
      `SELECT ${PRODUCT_COLUMNS}
         FROM lab_products
        WHERE code = $1
          AND lab_organization_id = $2
          AND deleted_at IS NULL${lock ? '\n          FOR UPDATE' : ''}`,
      [code, labOrgId],
    );
    return row;
  },
  /** Whether another live product of the laboratory has this name (any case). */
  async nameTaken(db: Queryable, labOrgId: number, name: string, exceptCode: string | null) {
    const [row] = await db.query<{ taken: boolean }>(
      `SELECT EXISTS (
                SELECT 1
                  FROM lab_products
                 WHERE lab_organization_id = $1
                   AND lower(name) = lower($2)
                   AND deleted_at IS NULL
                   AND code IS DISTINCT FROM $3
              ) AS taken`,
      [labOrgId, name, exceptCode],
    );
    return Boolean(row?.taken);
  },
  async insertProduct(db: Queryable, labOrgId: number, code: string, v: ProductValues) {
    const [row] = await db.query<ProductRow>(
      `INSERT INTO lab_products (code, lab_organization_id, name, work_type, materials, turnaround_days, price, currency,
                                 required_fields)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       RETURNING ${PRODUCT_COLUMNS}`,
      [code, labOrgId, v.name, v.workType, v.materials, v.turnaroundDays, v.price, v.currency, v.requiredFields],
    );
    return row!;
  },
  async updateProduct(db: Queryable, id: number, v: ProductValues) {
    const [row] = await db.query<ProductRow>(
      `UPDATE lab_products
          SET name = $2, work_type = $3, materials = $4, turnaround_days = $5, price = $6, currency = $7,
              required_fields = $8, updated_at = now()
        WHERE id = $1
       RETURNING ${PRODUCT_COLUMNS}`,
      [id, v.name, v.workType, v.materials, v.turnaroundDays, v.price, v.currency, v.requiredFields],
    );
    return row!;
  },
  async removeProduct(db: Queryable, id: number) {
    await db.query(
      `UPDATE lab_products
          SET deleted_at = now(), updated_at = now()
        WHERE id = $1`,
      [id],
    );
  },
  async calendar(db: Queryable, labOrgId: number) {
    const [row] = await db.query<{ working_weekdays: number[]; time_zone: string }>(
      `SELECT working_weekdays, time_zone
         FROM lab_calendars
        WHERE lab_organization_id = $1`,
      [labOrgId],
    );
    return row;
  },
  closedDates(db: Queryable, labOrgId: number) {
    return db.query<{ date: string; note: string | null }>(
      `SELECT to_char(closed_on, 'YYYY-MM-DD') AS date, note
         FROM lab_closed_dates
        WHERE lab_organization_id = $1
        ORDER BY closed_on`,
      [labOrgId],
    );
  },
  /** Replaces a laboratory's calendar and closed dates (call in a transaction). */
  async saveCalendar(
    db: Queryable,
    labOrgId: number,
    c: { workingWeekdays: number[]; timeZone: string; closedDates: { date: string; note: string | null }[] },
  ) {
    await db.query(
      `INSERT INTO lab_calendars (lab_organization_id, working_weekdays, time_zone)
       VALUES ($1, $2, $3)
       ON CONFLICT (lab_organization_id)
       DO UPDATE SET working_weekdays = EXCLUDED.working_weekdays, time_zone = EXCLUDED.time_zone, updated_at = now()`,
      [labOrgId, c.workingWeekdays, c.timeZone],
    );
    await db.query(
      `DELETE FROM lab_closed_dates
        WHERE lab_organization_id = $1`,
      [labOrgId],
    );
    if (c.closedDates.length) {
      await db.query(
        `INSERT INTO lab_closed_dates (lab_organization_id, closed_on, note)
         SELECT $1, d.closed_on, d.note
           FROM unnest($2::date[], $3::text[]) AS d (closed_on, note)`,
        [labOrgId, c.closedDates.map((d) => d.date), c.closedDates.map((d) => d.note)],
      );
    }
  },
  /** The laboratory behind a clinic's partnership (whatever its status), or undefined. */
  async labOfPartnership(db: Queryable, clinicOrgId: number, partnerCode: string) {
    const [row] = await db.query<{ lab_organization_id: number | null; status: number; lab_name: string | null }>(
      `SELECT p.lab_organization_id, p.status, o.name AS lab_name
         FROM partnerships p
         LEFT JOIN organizations o ON o.id = p.lab_organization_id
        WHERE p.code = $1
          AND p.clinic_organization_id = $2`,
      [partnerCode, clinicOrgId],
    );
    return row;
  },
};
