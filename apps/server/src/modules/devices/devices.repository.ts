import {
  DEVICE_LOW_BATTERY_PERCENT,
  DEVICE_WARRANTY_ENDING_DAYS,
  OrgType,
  type DEVICE_STATUSES,
} from '@portal/contracts';
import { pageOf, sqlPageAndTotal, type Queryable } from '../../platform/db.js';

export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export interface DeviceRow {
  id: number;
  serial_number: string;
  model: string;
  name: string | null;
  status: DeviceStatus;
  local_save: boolean;
  cloud_save: boolean;
  limit_type: number;
  warranty_date: string | null;
  battery_health: number | null;
  last_seen_at: Date | null;
  clinic_name: string | null;
  dealer_name: string | null;
  activation_code_hash: string;
  clinic_organization_id: number | null;
  total?: number;
}

const SELECT = `SELECT d.*, to_char(d.warranty_date, 'YYYY-MM-DD') AS warranty_date, c.name AS clinic_name, dl.name AS dealer_name
  FROM devices d LEFT JOIN organizations c ON c.id = d.clinic_organization_id LEFT JOIN organizations dl ON dl.id = d.dealer_organization_id`;

/** Which scanners an organization sees: a clinic its own, a dealer those it sells, an OEM those it makes. */
function scope(orgType: number): string {
  switch (orgType) {
    case OrgType.Inner:
      // Every scanner; the parameter is still named so PostgreSQL knows its type.
      return '$1::bigint IS NOT NULL';
    case OrgType.Dealer:
      return 'd.dealer_organization_id = $1';
    case OrgType.Oem:
      return 'd.oem_organization_id = $1';
    default:
      return 'd.clinic_organization_id = $1';
  }
}

/** A serial number's prefix or a part of the scanner's name; no keyword matches every scanner. */
const KEYWORD = `($2::text IS NULL OR d.serial_number ILIKE $2 || '%' OR d.name ILIKE '%' || $2 || '%')`;

/** The list's filters; null or false: not filtered on. */
export interface DeviceListFilters {
  keyword: string | null;
  status: string | null;
  limitType: number | null;
  warrantyEnding: boolean;
  lowBattery: boolean;
  activatedThisMonth: boolean;
  addedThisMonth: boolean;
}

/** $5 status, $6 limit type, $7–$10 the figures' conditions, $11 the caller's timezone, $12–$13 their thresholds. */
const TODAY = `(now() AT TIME ZONE $11)::date`;
const MONTH_START = `(date_trunc('month', now() AT TIME ZONE $11) AT TIME ZONE $11)`;
const FILTERS = `($5::text IS NULL OR d.status = $5)
  AND ($6::int IS NULL OR d.limit_type = $6)
  AND (NOT $7::boolean OR d.warranty_date BETWEEN ${TODAY} AND ${TODAY} + $12::int)
  AND (NOT $8::boolean OR d.battery_health < $13::int)
  AND (NOT $9::boolean OR d.activated_at >= ${MONTH_START})
  AND (NOT $10::boolean OR d.created_at >= ${MONTH_START})`;

export const devicesRepository = {
  /**
   * The demo's scanners (seed.ts): twelve made by the demo OEM, ten sold through the demo dealer, six bound to the
   * demo clinic, in every status. Their activation codes are unusable (no known code).
   */
  async insertDemoScanners(db: Queryable, oemUserId: number, dealerUserId: number, clinicUserId: number) {
    await db.query(
      `WITH o AS (SELECT (SELECT organization_id FROM users WHERE id = $1) AS oem,
                       (SELECT organization_id FROM users WHERE id = $2) AS dealer,
                       (SELECT organization_id FROM users WHERE id = $3) AS clinic)
     INSERT INTO devices (serial_number, model, oem_organization_id, dealer_organization_id, clinic_organization_id,
                          status, limit_type, warranty_date, battery_health, activated_at, created_at, activation_code_hash)
     SELECT 'DEMO-' || lpad(i::text, 4, '0'), 'IOS-5', o.oem,
            CASE WHEN i <= 10 THEN o.dealer END,
            CASE WHEN i <= 6 THEN o.clinic END,
            (ARRAY['Activated','DataTransferred','DataTransferring','Activated','Disabled','Activated',
                   'InActiveted','InActiveted','Canceled','InActiveted','InActiveted','InActiveted'])[i],
            1 + i % 3,
            current_date + (i * 25),
            CASE WHEN i <= 6 THEN 60 + i * 6 END,
            CASE WHEN i <= 6 THEN now() - make_interval(days => (i - 1) * 9) END,
            now() - make_interval(days => i * 4),
            'demo-unusable'
       FROM o, generate_series(1, 12) AS i`,
      [oemUserId, dealerUserId, clinicUserId],
    );
  },

  /** A page of the scanners the organization sees, by serial number, and how many there are in all. */
  async list(
    db: Queryable,
    org: { id: number; type: number },
    f: DeviceListFilters,
    timezone: string,
    limit: number,
    offset: number,
  ) {
    const where = `${scope(org.type)} AND ${KEYWORD} AND ${FILTERS}`;
    const rows = await db.query<DeviceRow & { total: number }>(
      sqlPageAndTotal(
        `FROM devices d WHERE ${where}`,
        `${SELECT}
          WHERE ${where}
          ORDER BY d.serial_number
          LIMIT $3 OFFSET $4`,
      ),
      [
        org.id,
        f.keyword,
        limit,
        offset,
        f.status,
        f.limitType,
        f.warrantyEnding,
        f.lowBattery,
        f.activatedThisMonth,
        f.addedThisMonth,
        timezone,
        DEVICE_WARRANTY_ENDING_DAYS,
        DEVICE_LOW_BATTERY_PERCENT,
      ],
    );
    return pageOf(rows);
  },
  async findById(db: Queryable, id: number) {
    const [row] = await db.query<DeviceRow>(`${SELECT} WHERE d.id = $1`, [id]);
    return row;
  },
  /** Serial numbers are stored in upper case; the caller's may be in any. */
  async findBySerial(db: Queryable, serial: string) {
    const [row] = await db.query<DeviceRow>(`${SELECT} WHERE d.serial_number = upper($1)`, [serial]);
    return row;
  },
  /** Locks the scanner's row for a change of status; undefined when there is no such scanner. */
  async lockStatus(db: Queryable, id: number) {
    const [row] = await db.query<{ status: DeviceStatus }>(
      `SELECT status
         FROM devices
        WHERE id = $1
          FOR UPDATE`,
      [id],
    );
    return row;
  },
  async setStatus(db: Queryable, id: number, to: DeviceStatus) {
    await db.query('UPDATE devices SET status = $2 WHERE id = $1', [id, to]);
  },
  /** Renames a scanner of the clinic; false when it has none by that serial number. */
  async rename(db: Queryable, clinicOrgId: number, serial: string, name: string) {
    const rows = await db.query(
      `UPDATE devices SET name = $3
        WHERE serial_number = upper($2) AND clinic_organization_id = $1
        RETURNING id`,
      [clinicOrgId, serial, name],
    );
    return rows.length > 0;
  },
  /** Binds the scanner to the clinic; the first activation's time is kept. */
  async bindToClinic(db: Queryable, id: number, clinicOrgId: number) {
    await db.query(
      `UPDATE devices
          SET clinic_organization_id = $2, activated_at = COALESCE(activated_at, now())
        WHERE id = $1`,
      [id, clinicOrgId],
    );
  },
  async insertToken(db: Queryable, tokenHash: string, deviceId: number) {
    await db.query('INSERT INTO device_tokens (token_hash, device_id) VALUES ($1, $2)', [tokenHash, deviceId]);
  },
  /** The scanner behind a live device token, while its clinic is active. */
  async findByToken(db: Queryable, tokenHash: string) {
    const [row] = await db.query<{
      id: number;
      clinic_organization_id: number | null;
      serial_number: string;
      status: DeviceStatus;
    }>(
      `SELECT d.id, d.clinic_organization_id, d.serial_number, d.status
         FROM device_tokens t
         JOIN devices d ON d.id = t.device_id
         JOIN organizations o ON o.id = d.clinic_organization_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND o.status = 1`,
      [tokenHash],
    );
    return row;
  },
  /** A heartbeat without a battery reading keeps the last one. */
  async heartbeat(db: Queryable, id: number, batteryHealth: number | null) {
    await db.query(
      `UPDATE devices
          SET last_seen_at = now(), battery_health = COALESCE($2, battery_health)
        WHERE id = $1`,
      [id, batteryHealth],
    );
  },
  async touch(db: Queryable, id: number) {
    await db.query('UPDATE devices SET last_seen_at = now() WHERE id = $1', [id]);
  },
  /** A dealer organization (type 4) by its code. */
  async dealerByCode(db: Queryable, code: string) {
    const [row] = await db.query<{ id: number }>('SELECT id FROM organizations WHERE code = $1 AND type = 4', [code]);
    return row;
  },
  /** Sets the dealer of the OEM's scanners among `serials`; answers those it changed. */
  async assignDealer(db: Queryable, oemOrgId: number, serials: string[], dealerId: number) {
    return db.query(
      `UPDATE devices SET dealer_organization_id = $3
        WHERE oem_organization_id = $1 AND serial_number = ANY ($2::text[])
        RETURNING id`,
      [oemOrgId, serials, dealerId],
    );
  },
  /** Which of these serial numbers are taken already. */
  async existingSerials(db: Queryable, serials: string[]) {
    return db.query<{ serial_number: string }>(
      'SELECT serial_number FROM devices WHERE serial_number = ANY ($1::text[])',
      [serials],
    );
  },
  async insert(
    db: Queryable,
    d: {
      serialNumber: string;
      model: string;
      oemOrgId: number;
      warrantyDate: string | null;
      limitType: number;
      activationCodeHash: string | undefined;
    },
  ) {
    await db.query(
      `INSERT INTO devices (serial_number, model, oem_organization_id, warranty_date, limit_type, activation_code_hash)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [d.serialNumber, d.model, d.oemOrgId, d.warrantyDate, d.limitType, d.activationCodeHash],
    );
  },
  /** Organizations of a type (laboratories) among these codes. */
  async organizationsByCode(db: Queryable, codes: string[], type: number) {
    return db.query<{ id: number; code: string }>(
      `SELECT id, code FROM organizations WHERE code = ANY ($1::text[]) AND type = $2`,
      [codes, type],
    );
  },
  /** A scanner of the clinic by its exact serial number. */
  async findOfClinic(db: Queryable, clinicOrgId: number, serialNumber: string) {
    const [row] = await db.query<{ id: number }>(
      'SELECT id FROM devices WHERE serial_number = $1 AND clinic_organization_id = $2',
      [serialNumber, clinicOrgId],
    );
    return row;
  },
  async designatedLabs(db: Queryable, deviceId: number) {
    return db.query<{ code: string; name: string }>(
      `SELECT o.code, o.name
         FROM device_designated_labs d
         JOIN organizations o ON o.id = d.lab_organization_id
        WHERE d.device_id = $1
        ORDER BY o.name`,
      [deviceId],
    );
  },
  /** The device's designated laboratories become exactly `labIds`. */
  async replaceDesignatedLabs(db: Queryable, deviceId: number, labIds: number[]) {
    await db.query('DELETE FROM device_designated_labs WHERE device_id = $1', [deviceId]);
    await db.query(
      `INSERT INTO device_designated_labs (device_id, lab_organization_id) SELECT $1, unnest($2::bigint[])`,
      [deviceId, labIds],
    );
  },
  async certifiedLabs(db: Queryable, oemOrgId: number) {
    return db.query<{ code: string; name: string }>(
      `SELECT o.code, o.name
         FROM oem_certified_labs c
         JOIN organizations o ON o.id = c.lab_organization_id
        WHERE c.oem_organization_id = $1
        ORDER BY o.name`,
      [oemOrgId],
    );
  },
  /** The OEM's certified laboratories become exactly `labIds`. */
  async replaceCertifiedLabs(db: Queryable, oemOrgId: number, labIds: number[]) {
    await db.query('DELETE FROM oem_certified_labs WHERE oem_organization_id = $1', [oemOrgId]);
    await db.query(
      `INSERT INTO oem_certified_labs (oem_organization_id, lab_organization_id) SELECT $1, unnest($2::bigint[])`,
      [oemOrgId, labIds],
    );
  },
  /**
   * An organization that is being purged lets go of its scanners: a clinic's go back to unactivated (their tokens end
   * with the clinic), and no scanner names the organization as its clinic, dealer or OEM any more.
   */
  async releaseOfOrganization(db: Queryable, organizationId: number) {
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
  },
};
