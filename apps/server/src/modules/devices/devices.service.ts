import { canMoveDevice, OrgType, type DEVICE_STATUSES } from '@portal/contracts';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, fail } from '../../platform/errors.js';
import { hashPassword, newToken, sha256, verifyPassword } from '../../platform/crypto.js';
import { readCatalogTable, validateCatalog } from './catalog.js';

type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export interface DeviceCaller {
  deviceId: number;
  organizationId: number;
  serialNumber: string;
}

interface DeviceRow {
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

function toDevice(r: DeviceRow) {
  return {
    serialNumber: r.serial_number,
    model: r.model,
    name: r.name,
    status: r.status,
    localSave: r.local_save,
    cloudSave: r.cloud_save,
    limitType: r.limit_type,
    warrantyDate: r.warranty_date,
    batteryHealth: r.battery_health,
    lastSeenAt: r.last_seen_at ? new Date(r.last_seen_at).toISOString() : null,
    clinicName: r.clinic_name,
    dealerName: r.dealer_name,
  };
}

export class DevicesService {
  constructor(private readonly db: Db) {}

  async list(org: { id: number; type: number }, q: { pageNum: number; pageSize: number; keyword?: string }) {
    const rows = await this.db.query<DeviceRow>(
      `${SELECT} WHERE ${scope(org.type)} AND ($2::text IS NULL OR d.serial_number ILIKE $2 || '%' OR d.name ILIKE '%' || $2 || '%')
        ORDER BY d.serial_number LIMIT $3 OFFSET $4`,
      [org.id, q.keyword ?? null, q.pageSize, (q.pageNum - 1) * q.pageSize],
    );
    const [{ total }] = (await this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM devices d WHERE ${scope(org.type)} AND ($2::text IS NULL OR d.serial_number ILIKE $2 || '%' OR d.name ILIKE '%' || $2 || '%')`,
      [org.id, q.keyword ?? null],
    )) as [{ total: number }];
    return { total, list: rows.map(toDevice) };
  }

  /** Moves a scanner along the table of allowed transitions, once: a conditional update. */
  async move(tx: Queryable, deviceId: number, to: DeviceStatus) {
    const [row] = await tx.query<{ status: DeviceStatus }>('SELECT status FROM devices WHERE id = $1 FOR UPDATE', [
      deviceId,
    ]);
    if (!row) fail('NOT_FOUND');
    if (row.status === to) return;
    if (!canMoveDevice(row.status, to))
      throw new AppError('DEVICE_STATUS_CONFLICT', { from: row.status, to }, { from: row.status, to });
    await tx.query('UPDATE devices SET status = $2 WHERE id = $1', [deviceId, to]);
  }

  async rename(orgId: number, serial: string, name: string) {
    const rows = await this.db.query(
      'UPDATE devices SET name = $3 WHERE serial_number = upper($2) AND clinic_organization_id = $1 RETURNING id',
      [orgId, serial, name],
    );
    if (!rows.length) fail('NOT_FOUND');
  }

  /** A clinic binds a scanner with its serial number and activation code. */
  async activateForClinic(orgId: number, serial: string, code: string) {
    const [d] = await this.db.query<DeviceRow>(`${SELECT} WHERE d.serial_number = upper($1)`, [serial]);
    if (!d || !(await verifyPassword(d.activation_code_hash, code))) fail('DEVICE_ACTIVATION_FAILED');
    if (d.clinic_organization_id && Number(d.clinic_organization_id) !== orgId) fail('DEVICE_ACTIVATION_FAILED');
    await this.db.transaction(async (tx) => {
      await this.move(tx, Number(d.id), 'Activated');
      await tx.query(
        'UPDATE devices SET clinic_organization_id = $2, activated_at = COALESCE(activated_at, now()) WHERE id = $1',
        [d.id, orgId],
      );
    });
    const [fresh] = await this.db.query<DeviceRow>(`${SELECT} WHERE d.id = $1`, [d.id]);
    return toDevice(fresh!);
  }

  /** The scanner software's own activation: a device token for a scanner a clinic has bound. */
  async deviceToken(serial: string, code: string) {
    const [d] = await this.db.query<DeviceRow>(`${SELECT} WHERE d.serial_number = upper($1)`, [serial]);
    if (!d || !(await verifyPassword(d.activation_code_hash, code)) || !d.clinic_organization_id)
      fail('DEVICE_ACTIVATION_FAILED');
    if (d.status === 'Disabled' || d.status === 'Canceled') fail('DEVICE_ACTIVATION_FAILED');
    const token = `dvc_${newToken()}`;
    await this.db.query('INSERT INTO device_tokens (token_hash, device_id) VALUES ($1, $2)', [sha256(token), d.id]);
    return { deviceToken: token, clinicName: d.clinic_name ?? '' };
  }

  async authenticate(token: string | undefined): Promise<DeviceCaller> {
    if (!token?.startsWith('dvc_')) fail('TOKEN_INVALID');
    const [row] = await this.db.query<{
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
      [sha256(token)],
    );
    if (!row || !row.clinic_organization_id || row.status === 'Disabled' || row.status === 'Canceled')
      fail('TOKEN_INVALID');
    return {
      deviceId: Number(row.id),
      organizationId: Number(row.clinic_organization_id),
      serialNumber: row.serial_number,
    };
  }

  async heartbeat(deviceId: number, batteryHealth?: number) {
    await this.db.query(
      'UPDATE devices SET last_seen_at = now(), battery_health = COALESCE($2, battery_health) WHERE id = $1',
      [deviceId, batteryHealth ?? null],
    );
  }

  async setTransfer(deviceId: number, to: 'DataTransferring' | 'DataTransferred') {
    await this.db.transaction(async (tx) => {
      await this.move(tx, deviceId, to);
      await tx.query('UPDATE devices SET last_seen_at = now() WHERE id = $1', [deviceId]);
    });
  }

  async assignDealer(oemOrgId: number, serials: string[], dealerCode: string) {
    const [dealer] = await this.db.query<{ id: number }>('SELECT id FROM organizations WHERE code = $1 AND type = 4', [
      dealerCode,
    ]);
    if (!dealer) fail('NOT_FOUND');
    // All or none: a serial number the OEM did not import refuses the whole list.
    const wanted = [...new Set(serials.map((s) => s.toUpperCase()))];
    return this.db.transaction(async (tx) => {
      const rows = await tx.query(
        'UPDATE devices SET dealer_organization_id = $3 WHERE oem_organization_id = $1 AND serial_number = ANY ($2::text[]) RETURNING id',
        [oemOrgId, wanted, dealer.id],
      );
      if (rows.length !== wanted.length) fail('NOT_FOUND');
      return rows.length;
    });
  }

  /** All or nothing: every bad row is reported with its number, and then nothing is imported. */
  async importCatalog(oemOrgId: number, bytes: Buffer) {
    let table: string[][];
    try {
      table = await readCatalogTable(bytes);
    } catch {
      return { imported: 0, errors: [{ row: 0, reason: 'not a readable xlsx or csv file' }] };
    }
    const { rows, errors } = validateCatalog(table);
    if (errors.length) return { imported: 0, errors };
    const existing = await this.db.query<{ serial_number: string }>(
      'SELECT serial_number FROM devices WHERE serial_number = ANY ($1::text[])',
      [rows.map((r) => r.serialNumber)],
    );
    const taken = new Set(existing.map((e) => e.serial_number));
    const clashes = rows
      .filter((r) => taken.has(r.serialNumber))
      .map((r) => ({ row: r.row, reason: `serialNumber ${r.serialNumber} already exists` }));
    if (clashes.length) return { imported: 0, errors: clashes };
    const hashes = await Promise.all(rows.map((r) => hashPassword(r.activationCode)));
    await this.db.transaction(async (tx) => {
      for (const [i, r] of rows.entries()) {
        await tx.query(
          `INSERT INTO devices (serial_number, model, oem_organization_id, warranty_date, limit_type, activation_code_hash) VALUES ($1, $2, $3, $4, $5, $6)`,
          [r.serialNumber, r.model, oemOrgId, r.warrantyDate, r.limitType, hashes[i]],
        );
      }
    });
    return { imported: rows.length, errors: [] };
  }

  /** Laboratory organizations by code; every code must name a laboratory (2041 names the first that does not). */
  private async labsByCode(tx: Queryable, codes: string[]) {
    const unique = [...new Set(codes)];
    const rows = await tx.query<{ id: number; code: string }>(
      `SELECT id, code FROM organizations WHERE code = ANY ($1::text[]) AND type = $2`,
      [unique, OrgType.Lab],
    );
    const missing = unique.find((c) => !rows.some((r) => r.code === c));
    if (missing) fail('NOT_A_LAB', { code: missing }, { field: 'labCodes' });
    return rows.map((r) => Number(r.id));
  }

  private async clinicDevice(tx: Queryable, clinicOrgId: number, serialNumber: string) {
    const [d] = await tx.query<{ id: number }>(
      'SELECT id FROM devices WHERE serial_number = $1 AND clinic_organization_id = $2',
      [serialNumber, clinicOrgId],
    );
    if (!d) fail('NOT_FOUND');
    return Number(d.id);
  }

  /** Limit type 1: the laboratories a device's clinic lets it send to. */
  async designatedLabs(clinicOrgId: number, serialNumber: string) {
    const deviceId = await this.clinicDevice(this.db, clinicOrgId, serialNumber);
    const list = await this.db.query<{ code: string; name: string }>(
      `SELECT o.code, o.name FROM device_designated_labs d JOIN organizations o ON o.id = d.lab_organization_id WHERE d.device_id = $1 ORDER BY o.name`,
      [deviceId],
    );
    return { list };
  }

  async saveDesignatedLabs(clinicOrgId: number, serialNumber: string, labCodes: string[]) {
    await this.db.transaction(async (tx) => {
      const deviceId = await this.clinicDevice(tx, clinicOrgId, serialNumber);
      const labIds = await this.labsByCode(tx, labCodes);
      await tx.query('DELETE FROM device_designated_labs WHERE device_id = $1', [deviceId]);
      await tx.query(
        `INSERT INTO device_designated_labs (device_id, lab_organization_id) SELECT $1, unnest($2::bigint[])`,
        [deviceId, labIds],
      );
    });
  }

  /** Limit type 2: the laboratories an OEM certifies for all its scanners. */
  async certifiedLabs(oemOrgId: number) {
    const list = await this.db.query<{ code: string; name: string }>(
      `SELECT o.code, o.name FROM oem_certified_labs c JOIN organizations o ON o.id = c.lab_organization_id WHERE c.oem_organization_id = $1 ORDER BY o.name`,
      [oemOrgId],
    );
    return { list };
  }

  async saveCertifiedLabs(oemOrgId: number, labCodes: string[]) {
    await this.db.transaction(async (tx) => {
      const labIds = await this.labsByCode(tx, labCodes);
      await tx.query('DELETE FROM oem_certified_labs WHERE oem_organization_id = $1', [oemOrgId]);
      await tx.query(
        `INSERT INTO oem_certified_labs (oem_organization_id, lab_organization_id) SELECT $1, unnest($2::bigint[])`,
        [oemOrgId, labIds],
      );
    });
  }
}
