import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_STATUSES, DEVICE_TRANSITIONS, OrgType, canMoveDevice } from '@portal/contracts';
import { hashPassword, newCode } from '../../src/platform/crypto.js';
import { DevicesService } from '../../src/modules/devices/devices.service.js';
import { devicesRepository } from '../../src/modules/devices/devices.repository.js';
import { actor, refused, serviceWorld, type ServiceWorld } from './kit.js';

/** DevicesService.move: a scanner moves only along DEVICE_TRANSITIONS, once, under its row lock. */
let w: ServiceWorld;
let devices: DevicesService;
let oem: Awaited<ReturnType<typeof actor>>;
let codeHash: string;

beforeAll(async () => {
  w = await serviceWorld();
  devices = new DevicesService(w.db);
  oem = await actor(w.db, OrgType.Oem);
  codeHash = await hashPassword('ACT-1234');
});
afterAll(() => w.close());

type Status = (typeof DEVICE_STATUSES)[number];

/** An imported scanner (inactivated), set to `status` as the test needs it. */
async function scannerIn(status: Status) {
  const serialNumber = newCode('SN').toUpperCase();
  await devicesRepository.insert(w.db, {
    serialNumber,
    model: 'IntraScan 5',
    oemOrgId: oem.organizationId,
    warrantyDate: null,
    limitType: 3,
    activationCodeHash: codeHash,
  });
  const d = (await devicesRepository.findBySerial(w.db, serialNumber))!;
  await devicesRepository.setStatus(w.db, Number(d.id), status);
  return { id: Number(d.id), serialNumber };
}

const statusOf = async (id: number) => (await devicesRepository.findById(w.db, id))!.status;

describe('scanner statuses', () => {
  for (const from of DEVICE_STATUSES) {
    it(`from ${from}: moves to ${DEVICE_TRANSITIONS[from].join(', ') || 'nothing'}, and nowhere else`, async () => {
      for (const to of DEVICE_STATUSES) {
        if (to === from) continue;
        const d = await scannerIn(from);
        const move = w.db.transaction((tx) => devices.move(tx, d.id, to));
        if (canMoveDevice(from, to)) {
          await move;
          expect(await statusOf(d.id), `${from} → ${to}`).toBe(to);
        } else {
          await refused(move, 'DEVICE_STATUS_CONFLICT', { from, to });
          expect(await statusOf(d.id), `${from} → ${to}`).toBe(from);
        }
      }
    });
  }

  it('leaves a scanner already there as it is, and finds no scanner that does not exist', async () => {
    const d = await scannerIn('Canceled');
    await w.db.transaction((tx) => devices.move(tx, d.id, 'Canceled'));
    expect(await statusOf(d.id)).toBe('Canceled');
    await refused(
      w.db.transaction((tx) => devices.move(tx, 987_654_321, 'Activated')),
      'NOT_FOUND',
    );
  });

  it('activates for a clinic only with the right code, and binds it to that clinic alone', async () => {
    const clinic = await actor(w.db, OrgType.Clinic);
    const other = await actor(w.db, OrgType.Clinic);
    const d = await scannerIn('InActiveted');
    await refused(
      devices.activateForClinic(clinic.organizationId, d.serialNumber, 'WRONG'),
      'DEVICE_ACTIVATION_FAILED',
    );
    expect(await statusOf(d.id)).toBe('InActiveted');
    const activated = await devices.activateForClinic(clinic.organizationId, d.serialNumber, 'ACT-1234');
    expect(activated.status).toBe('Activated');
    await refused(
      devices.activateForClinic(other.organizationId, d.serialNumber, 'ACT-1234'),
      'DEVICE_ACTIVATION_FAILED',
    );
    const canceled = await scannerIn('Canceled');
    await refused(
      devices.activateForClinic(clinic.organizationId, canceled.serialNumber, 'ACT-1234'),
      'DEVICE_STATUS_CONFLICT',
    );
  });
});
