import { devicesRepository } from './modules/devices/devices.repository.js';
import { AGREEMENT_TYPES, OrgType, PartnerStatus, ReviewStatus, UserStatus } from '@portal/contracts';
import type { Db } from './platform/db.js';
import { hashPassword, newCode } from './platform/crypto.js';
import { UsersService } from './modules/users/users.service.js';
import { organizationsRepository } from './modules/organizations/organizations.repository.js';
import { agreementsRepository } from './modules/agreements/agreements.repository.js';
import { partnersRepository } from './modules/partners/partners.repository.js';

/** The demo accounts' addresses: their mail is readable in the demo mailbox by anyone trying the portal. */
export const demoEmail = (account: string) => `${account}@demo.dental-portal.test`;

export const DEMO_ACCOUNTS = [
  {
    account: 'admin',
    orgType: OrgType.Inner,
    role: 'super_admin',
    organization: 'Portal Operations',
    label: 'super administrator',
  },
  {
    account: 'clinic',
    orgType: OrgType.Clinic,
    role: 'clinic_admin',
    organization: 'Bright Smile Dental Clinic',
    label: 'clinic administrator',
  },
  {
    account: 'lab',
    orgType: OrgType.Lab,
    role: 'lab_admin',
    organization: 'Precision Dental Lab',
    label: 'laboratory administrator',
  },
  {
    account: 'dealer',
    orgType: OrgType.Dealer,
    role: 'dealer_admin',
    organization: 'Dental Supply Partners',
    label: 'dealer administrator',
  },
  {
    account: 'oem',
    orgType: OrgType.Oem,
    role: 'oem_admin',
    organization: 'Scanner Works',
    label: 'OEM administrator',
  },
] as const;

export async function isEmpty(db: Db): Promise<boolean> {
  return (await db.query('SELECT 1 FROM users LIMIT 1')).length === 0;
}

/** Creates an active user with its own organization; used by the demo seed and `admin:create`. */
export async function createAccount(
  db: Db,
  a: {
    account: string;
    email: string;
    password: string;
    orgType: number;
    roleCode: string;
    organization: string;
    region: string;
    displayName?: string;
  },
) {
  const passwordHash = await hashPassword(a.password);
  return db.transaction(async (tx) => {
    const organizationId = await organizationsRepository.insert(tx, {
      code: newCode('org'),
      name: a.organization,
      type: a.orgType,
      region: a.region,
      reviewStatus: ReviewStatus.Approved,
      language: 'en',
      email: a.email,
    });
    const [role] = await tx.query<{ id: number }>('SELECT id FROM roles WHERE code = $1', [a.roleCode]);
    const userId = await UsersService.insert(tx, {
      userCode: newCode('u'),
      account: a.account,
      email: a.email,
      phone: null,
      displayName: a.displayName ?? a.organization,
      organizationId,
      roleId: Number(role!.id),
      status: UserStatus.Activated,
      isOrgAdmin: true,
      language: 'en',
      passwordHash,
    });
    await agreementsRepository.markRead(tx, userId, [...AGREEMENT_TYPES]);
    return userId;
  });
}

export async function seedDemo(db: Db, password: string, region: string) {
  const users: Record<string, number> = {};
  for (const d of DEMO_ACCOUNTS) {
    users[d.account] = await createAccount(db, {
      account: d.account,
      email: demoEmail(d.account),
      password,
      orgType: d.orgType,
      roleCode: d.role,
      organization: d.organization,
      region,
      displayName: d.organization,
    });
  }
  await seedDemoPartnership(db, users.clinic!, users.lab!);
  await seedDemoScanners(db, users.oem!, users.dealer!, users.clinic!);
}

/**
 * Scanners the demo OEM made, most sold through the demo dealer and some bound to the demo clinic, in every status,
 * so the dealer's and the OEM's dashboards show figures. Their activation codes are unusable (no known code).
 */
async function seedDemoScanners(db: Db, oemUserId: number, dealerUserId: number, clinicUserId: number) {
  await devicesRepository.insertDemoScanners(db, oemUserId, dealerUserId, clinicUserId);
}

/** The demo clinic and laboratory start as partners, so a case can be sent to the lab right away. */
async function seedDemoPartnership(db: Db, clinicUserId: number, labUserId: number) {
  await db.transaction(async (tx) => {
    const orgOf = async (userId: number) =>
      Number(
        (await tx.query<{ id: string }>('SELECT organization_id AS id FROM users WHERE id = $1', [userId]))[0]!.id,
      );
    const [clinic, lab] = [await orgOf(clinicUserId), await orgOf(labUserId)];
    const partnership = await partnersRepository.insert(tx, {
      code: newCode('p'),
      clinicOrgId: clinic,
      labOrgId: lab,
      status: PartnerStatus.Accepted,
      initiatorOrgId: clinic,
      invitedEmail: null,
    });
    // The history the screens show: the clinic applied, the laboratory accepted.
    const partnershipId = Number(partnership.id);
    await partnersRepository.event(tx, {
      partnershipId,
      action: 'apply',
      from: null,
      to: PartnerStatus.Applying,
      reason: null,
      userId: clinicUserId,
      orgId: clinic,
    });
    await partnersRepository.event(tx, {
      partnershipId,
      action: 'accept',
      from: PartnerStatus.Applying,
      to: PartnerStatus.Accepted,
      reason: null,
      userId: labUserId,
      orgId: lab,
    });
  });
}
