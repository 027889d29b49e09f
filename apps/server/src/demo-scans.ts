import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateArch, generateBite, toBinaryStl, toPly } from '@portal/mesh';
import type { Db } from './platform/db.js';
import { casesRepository } from './modules/cases/cases.repository.js';
import { DentistsService } from './modules/dentists/dentists.service.js';
import { DevicesService } from './modules/devices/devices.service.js';
import { ScannerClient } from './scanner/client.js';

const DEMO_SCANNERS = [
  { serial: 'SN-DEMO-0001', code: 'demo-activation-0001' },
  { serial: 'SN-DEMO-0002', code: 'demo-activation-0002' },
];
const DEMO_PATIENTS = [
  {
    name: 'Crown 16',
    patientName: 'Emma Schmidt',
    patientId: 'P-1001',
    birthDate: '1984-03-12',
    treatments: ['Crown'],
    dentist: 'Dr. Anna Berg',
    seed: 11,
  },
  {
    name: 'Bridge 34-36',
    patientName: 'Lucas Moreau',
    patientId: 'P-1002',
    birthDate: '1971-09-30',
    treatments: ['Crown', 'Pontic'],
    dentist: 'Dr. Marc Dubois',
    seed: 23,
  },
];

/**
 * Demo scanners and scans, made the way real ones arrive: the OEM's catalogue import, the dealer's
 * assignment, the clinic's activation, then the scanner uploading through the device API.
 */
export async function seedDemoScans(
  db: Db,
  baseUrl: string,
  dataDir: string,
  log: (msg: string) => void,
  triangles = 200_000,
) {
  const org = async (account: string) =>
    Number(
      (
        await db.query<{ organization_id: number }>('SELECT organization_id FROM users WHERE account = $1', [account])
      )[0]!.organization_id,
    );
  const devices = new DevicesService(db);
  const dentists = new DentistsService(db);
  const csv = [
    'model,serialNumber,activationCode,warrantyDate,limitType',
    ...DEMO_SCANNERS.map((s) => `IOS Demo 5,${s.serial},${s.code},2029-12-31,3`),
  ].join('\n');
  const imported = await devices.importCatalog(await org('oem'), Buffer.from(csv));
  if (imported.errors.length) throw new Error(`demo catalogue: ${JSON.stringify(imported.errors)}`);
  const [dealer] = await db.query<{ code: string }>(
    'SELECT o.code FROM organizations o JOIN users u ON u.organization_id = o.id WHERE u.account = $1',
    ['dealer'],
  );
  await devices.assignDealer(
    await org('oem'),
    DEMO_SCANNERS.map((s) => s.serial),
    dealer!.code,
  );
  await devices.activateForClinic(await org('clinic'), DEMO_SCANNERS[0]!.serial, DEMO_SCANNERS[0]!.code);

  const dir = join(dataDir, 'demo-scans');
  mkdirSync(dir, { recursive: true });
  const scanner = new ScannerClient(baseUrl);
  await scanner.activate(DEMO_SCANNERS[0]!.serial, DEMO_SCANNERS[0]!.code);
  await scanner.heartbeat(92);
  for (const p of DEMO_PATIENTS) {
    const files: Array<[string, Uint8Array, string]> = [
      ['upper.ply', toPly(generateArch({ jaw: 'upper', triangles, seed: p.seed }), { binary: true }), 'upper'],
      ['lower.stl', toBinaryStl(generateArch({ jaw: 'lower', triangles, seed: p.seed + 1 })), 'lower'],
      ['bite.stl', toBinaryStl(generateBite({ seed: p.seed })), 'bite'],
    ];
    const { caseCode } = await scanner.createCase({
      name: p.name,
      patientName: p.patientName,
      patientId: p.patientId,
      birthDate: p.birthDate,
      treatments: p.treatments,
    });
    // The clinic's dentists: each demo case is one of theirs, as a scanner's case is once the clinic files it.
    const clinic = await org('clinic');
    const dentistId = await dentists.save(clinic, { name: p.dentist });
    await casesRepository.setDentist(db, clinic, caseCode, dentistId);
    mkdirSync(join(dir, caseCode), { recursive: true });
    for (const [name, bytes, jaw] of files) {
      const path = join(dir, caseCode, name);
      writeFileSync(path, bytes);
      await scanner.upload(path, { caseCode, jaw }, { stateFile: join(dir, 'uploads.json') });
    }
    await scanner.complete(caseCode);
    log(`demo case ${p.name} (${p.patientName}) uploaded by scanner ${DEMO_SCANNERS[0]!.serial}`);
  }
}
