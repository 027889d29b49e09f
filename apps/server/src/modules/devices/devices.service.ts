import { canMoveDevice, OrgType, type DeviceListQuery } from '@portal/contracts';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, fail } from '../../platform/errors.js';
import { hashPassword, newToken, sha256, verifyPassword } from '../../platform/crypto.js';
import { readCatalogTable, validateCatalog } from './catalog.js';
import { devicesRepository, type DeviceRow, type DeviceStatus } from './devices.repository.js';

export interface DeviceCaller {
  deviceId: number;
  organizationId: number;
  serialNumber: string;
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
  /**
   * Static, for the purge of a closed organization (in its transaction): the organization's scanners are let go;
   * a clinic's go back to unactivated. The scanner tables are written by this module alone.
   */
  static releaseOfOrganization(tx: Queryable, organizationId: number) {
    return devicesRepository.releaseOfOrganization(tx, organizationId);
  }

  constructor(private readonly db: Db) {}

  /** The scanners in the organization's scope, searched and filtered; "this month" in the caller's `timezone`. */
  async list(org: { id: number; type: number }, q: DeviceListQuery, timezone: string) {
    const filters = {
      keyword: q.keyword ?? null,
      status: q.status ?? null,
      limitType: q.limitType ?? null,
      warrantyEnding: q.warrantyEnding ?? false,
      lowBattery: q.lowBattery ?? false,
      activatedThisMonth: q.activatedThisMonth ?? false,
      addedThisMonth: q.addedThisMonth ?? false,
    };
    const { total, rows } = await devicesRepository.list(
      this.db,
      org,
      filters,
      timezone,
      q.pageSize,
      (q.pageNum - 1) * q.pageSize,
    );
    return { total, list: rows.map(toDevice) };
  }

  /** Moves a scanner along the table of allowed transitions, once: a conditional update. */
  async move(tx: Queryable, deviceId: number, to: DeviceStatus) {
    const row = await devicesRepository.lockStatus(tx, deviceId);
    if (!row) fail('NOT_FOUND');
    if (row.status === to) return;
    if (!canMoveDevice(row.status, to))
      throw new AppError('DEVICE_STATUS_CONFLICT', { from: row.status, to }, { from: row.status, to });
    await devicesRepository.setStatus(tx, deviceId, to);
  }

  async rename(orgId: number, serial: string, name: string) {
    if (!(await devicesRepository.rename(this.db, orgId, serial, name))) fail('NOT_FOUND');
  }

  /** A clinic binds a scanner with its serial number and activation code. */
  async activateForClinic(orgId: number, serial: string, code: string) {
    const d = await devicesRepository.findBySerial(this.db, serial);
    if (!d || !(await verifyPassword(d.activation_code_hash, code))) fail('DEVICE_ACTIVATION_FAILED');
    if (d.clinic_organization_id && Number(d.clinic_organization_id) !== orgId) fail('DEVICE_ACTIVATION_FAILED');
    await this.db.transaction(async (tx) => {
      await this.move(tx, Number(d.id), 'Activated');
      await devicesRepository.bindToClinic(tx, d.id, orgId);
    });
    const fresh = await devicesRepository.findById(this.db, d.id);
    return toDevice(fresh!);
  }

  /** The scanner software's own activation: a device token for a scanner a clinic has bound. */
  async deviceToken(serial: string, code: string) {
    const d = await devicesRepository.findBySerial(this.db, serial);
    if (!d || !(await verifyPassword(d.activation_code_hash, code)) || !d.clinic_organization_id)
      fail('DEVICE_ACTIVATION_FAILED');
    if (d.status === 'Disabled' || d.status === 'Canceled') fail('DEVICE_ACTIVATION_FAILED');
    const token = `dvc_${newToken()}`;
    await devicesRepository.insertToken(this.db, sha256(token), d.id);
    return { deviceToken: token, clinicName: d.clinic_name ?? '' };
  }

  async authenticate(token: string | undefined): Promise<DeviceCaller> {
    if (!token?.startsWith('dvc_')) fail('TOKEN_INVALID');
    const row = await devicesRepository.findByToken(this.db, sha256(token));
    if (!row || !row.clinic_organization_id || row.status === 'Disabled' || row.status === 'Canceled')
      fail('TOKEN_INVALID');
    return {
      deviceId: Number(row.id),
      organizationId: Number(row.clinic_organization_id),
      serialNumber: row.serial_number,
    };
  }

  async heartbeat(deviceId: number, batteryHealth?: number) {
    await devicesRepository.heartbeat(this.db, deviceId, batteryHealth ?? null);
  }

  async setTransfer(deviceId: number, to: 'DataTransferring' | 'DataTransferred') {
    await this.db.transaction(async (tx) => {
      await this.move(tx, deviceId, to);
      await devicesRepository.touch(tx, deviceId);
    });
  }

  async assignDealer(oemOrgId: number, serials: string[], dealerCode: string) {
    const dealer = await devicesRepository.dealerByCode(this.db, dealerCode);
    if (!dealer) fail('NOT_FOUND');
    // All or none: a serial number the OEM did not import refuses the whole list.
    const wanted = [...new Set(serials.map((s) => s.toUpperCase()))];
    return this.db.transaction(async (tx) => {
      const rows = await devicesRepository.assignDealer(tx, oemOrgId, wanted, dealer.id);
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
    const existing = await devicesRepository.existingSerials(
      this.db,
      rows.map((r) => r.serialNumber),
    );
    const taken = new Set(existing.map((e) => e.serial_number));
    const clashes = rows
      .filter((r) => taken.has(r.serialNumber))
      .map((r) => ({ row: r.row, reason: `serialNumber ${r.serialNumber} already exists` }));
    if (clashes.length) return { imported: 0, errors: clashes };
    const hashes = await Promise.all(rows.map((r) => hashPassword(r.activationCode)));
    await this.db.transaction(async (tx) => {
      for (const [i, r] of rows.entries()) {
        await devicesRepository.insert(tx, {
          serialNumber: r.serialNumber,
          model: r.model,
          oemOrgId,
          warrantyDate: r.warrantyDate,
          limitType: r.limitType,
          activationCodeHash: hashes[i],
        });
      }
    });
    return { imported: rows.length, errors: [] };
  }

  /** Laboratory organizations by code; every code must name a laboratory (2041 names the first that does not). */
  private async labsByCode(tx: Queryable, codes: string[]) {
    const unique = [...new Set(codes)];
    const rows = await devicesRepository.organizationsByCode(tx, unique, OrgType.Lab);
    const missing = unique.find((c) => !rows.some((r) => r.code === c));
    if (missing) fail('NOT_A_LAB', { code: missing }, { field: 'labCodes' });
    return rows.map((r) => Number(r.id));
  }

  private async clinicDevice(tx: Queryable, clinicOrgId: number, serialNumber: string) {
    const d = await devicesRepository.findOfClinic(tx, clinicOrgId, serialNumber);
    if (!d) fail('NOT_FOUND');
    return Number(d.id);
  }

  /** Limit type 1: the laboratories a device's clinic lets it send to. */
  async designatedLabs(clinicOrgId: number, serialNumber: string) {
    const deviceId = await this.clinicDevice(this.db, clinicOrgId, serialNumber);
    const list = await devicesRepository.designatedLabs(this.db, deviceId);
    return { list };
  }

  async saveDesignatedLabs(clinicOrgId: number, serialNumber: string, labCodes: string[]) {
    await this.db.transaction(async (tx) => {
      const deviceId = await this.clinicDevice(tx, clinicOrgId, serialNumber);
      const labIds = await this.labsByCode(tx, labCodes);
      await devicesRepository.replaceDesignatedLabs(tx, deviceId, labIds);
    });
  }

  /** Limit type 2: the laboratories an OEM certifies for all its scanners. */
  async certifiedLabs(oemOrgId: number) {
    const list = await devicesRepository.certifiedLabs(this.db, oemOrgId);
    return { list };
  }

  async saveCertifiedLabs(oemOrgId: number, labCodes: string[]) {
    await this.db.transaction(async (tx) => {
      const labIds = await this.labsByCode(tx, labCodes);
      await devicesRepository.replaceCertifiedLabs(tx, oemOrgId, labIds);
    });
  }
}
