import { AGREEMENT_TYPES, OrgType } from '@portal/contracts';
import { UsersService } from '../src/modules/users/users.service.js';
import { agreementsRepository } from '../src/modules/agreements/agreements.repository.js';
import { hashPassword, newCode, newToken, sha256 } from '../src/platform/crypto.js';
import { createUser, login, PASSWORD, type Harness } from './harness.js';

/** One organization's administrator, signed in. */
export interface Side {
  token: string;
  refreshToken: string;
  userId: number;
  account: string;
  organizationId: number;
  code: string;
  email: string;
}

export async function side(h: Harness, orgType: number = OrgType.Clinic, language = 'en'): Promise<Side> {
  const u = await createUser(h.db, { orgType, language });
  const [org] = await h.db.query<{ code: string }>('SELECT code FROM organizations WHERE id = $1', [u.organizationId]);
  const tokens = await login(h, u.account);
  return {
    token: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    userId: u.userId,
    account: u.account,
    organizationId: u.organizationId,
    code: org!.code,
    email: u.email,
  };
}

/** A partnership the laboratory accepted; answers its code. */
export async function partner(h: Harness, clinic: Side, lab: Side): Promise<string> {
  const applied = await h.call('partner/apply', { token: clinic.token, body: { organizationCode: lab.code } });
  const code = applied.data.partnerCode as string;
  await h.call('partner/accept', { token: lab.token, body: { partnerCode: code } });
  return code;
}

export async function newCase(h: Harness, clinic: Side, name = 'Crown case', patientName = 'Greta Lund') {
  const made = await h.call('case/create', { token: clinic.token, body: { name, patientName } });
  return made.data.caseCode as string;
}

export const CROWN = { number: 16, shade: 'A2', material: 'Zirconia', method: 'screwRetained' };

export async function sendToLab(h: Harness, clinic: Side, partnerCode: string, caseCodes: string[]) {
  const res = await h.call('order/create', {
    token: clinic.token,
    body: { caseCodes, partnerCode, orderType: 'restoration', workTypes: ['Crown'], teeth: [CROWN] },
  });
  if (res.code !== 200) throw new Error(`order/create: ${res.code} ${res.msg}`);
  return (res.data.list as Array<{ orderCode: string }>).map((o) => o.orderCode);
}

export const orderAction = (h: Harness, s: Side, orderCodes: string[], action: string, extra = {}) =>
  h.call('order/action', { token: s.token, body: { orderCodes, action, ...extra } });

export async function count(h: Harness, fromWhere: string, params: unknown[] = []): Promise<number> {
  const [row] = await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${fromWhere}`, params);
  return row!.n;
}

/** A scanner bound to the clinic, with a device token as the scanner software would hold. */
export async function boundScanner(h: Harness, clinic: Side) {
  const serial = `SN-${newCode('').toUpperCase()}`;
  const [device] = await h.db.query<{ id: number }>(
    `INSERT INTO devices (serial_number, model, clinic_organization_id, status, activation_code_hash, activated_at)
     VALUES ($1, 'Test scanner', $2, 'Activated', $3, now())
     RETURNING id`,
    [serial, clinic.organizationId, await hashPassword('activation-code')],
  );
  const token = `dvc_${newToken()}`;
  await h.db.query('INSERT INTO device_tokens (token_hash, device_id) VALUES ($1, $2)', [sha256(token), device!.id]);
  return { serial, deviceId: Number(device!.id), token };
}

/**
 * A member of `org` whose role (the organization's own) holds exactly these menu entries and their parents, as the
 * role editor would save them; signed in.
 */
export async function member(h: Harness, org: Side, orgType: number, menuCodes: string[]) {
  const [role] = await h.db.query<{ id: number; code: string }>(
    `INSERT INTO roles (code, name, org_type, organization_id) VALUES ($1, $2, $3, $4) RETURNING id, code`,
    [newCode('r'), `Narrow ${newToken().slice(0, 6)}`, orgType, org.organizationId],
  );
  await h.db.query(
    `WITH RECURSIVE wanted AS (
       SELECT code, parent_code FROM menus WHERE code = ANY ($2::text[])
       UNION SELECT m.code, m.parent_code FROM menus m JOIN wanted w ON m.code = w.parent_code)
     INSERT INTO role_menus (role_id, menu_id) SELECT $1, m.id FROM menus m JOIN wanted w ON w.code = m.code`,
    [role!.id, menuCodes],
  );
  const account = `member${newToken()
    .slice(0, 8)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')}`;
  const userId = await UsersService.insert(h.db, {
    userCode: newCode('u'),
    account,
    email: `${account}@example.test`,
    phone: null,
    displayName: `Member ${account}`,
    organizationId: org.organizationId,
    roleId: Number(role!.id),
    status: 1,
    isOrgAdmin: false,
    language: 'en',
    passwordHash: await hashPassword(PASSWORD),
  });
  await agreementsRepository.markRead(h.db, userId, [...AGREEMENT_TYPES]);
  const tokens = await login(h, account);
  return { token: tokens.accessToken, userId, account, roleCode: role!.code, roleId: Number(role!.id) };
}
