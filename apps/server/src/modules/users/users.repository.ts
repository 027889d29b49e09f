import type { ToothNumberingSystem } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';

export interface UserRow {
  id: number;
  user_code: string;
  account: string;
  email: string;
  phone: string | null;
  display_name: string;
  nickname: string | null;
  avatar: string | null;
  gender: number | null;
  organization_id: number;
  role_id: number;
  status: number;
  is_org_admin: boolean;
  force_change_password: boolean;
  tooth_numbering_system: string;
  msg_receive_type: string;
  receive_email: boolean;
  language: string;
  account_changed: boolean;
  pending_email: string | null;
  improvement_plan: boolean;
  deleted_at: Date | null;
  password_hash: string;
  created_at: Date;
  updated_at: Date;
}

export interface UserWithOrgRow extends UserRow {
  org_code: string;
  org_name: string;
  org_type: number;
  org_region: string;
  org_status: number;
  org_review_status: number;
  org_invitation_code: string;
  role_code: string;
  role_name: string;
}

const USER_WITH_ORG_COLUMNS = `u.*, o.code AS org_code, o.name AS org_name, o.type AS org_type, o.region AS org_region,
       o.status AS org_status, o.review_status AS org_review_status, o.invitation_code AS org_invitation_code, r.code AS role_code, r.name AS role_name`;
const ORG_AND_ROLE = 'JOIN organizations o ON o.id = u.organization_id JOIN roles r ON r.id = u.role_id';
const WITH_ORG = `SELECT ${USER_WITH_ORG_COLUMNS} FROM users u ${ORG_AND_ROLE}`;

export interface UserSessionRow extends UserWithOrgRow {
  revoked_at: Date | null;
  expires_at: Date;
  identity_verified_until: Date | null;
}

export const usersRepository = {
  /** One query per authenticated request: the session with its user, organization and role. */
  async findBySession(db: Queryable, sessionId: string): Promise<UserSessionRow | undefined> {
    return (
      await db.query<UserSessionRow>(
        `SELECT ${USER_WITH_ORG_COLUMNS}, s.revoked_at, s.expires_at, s.identity_verified_until
           FROM sessions s JOIN users u ON u.id = s.user_id ${ORG_AND_ROLE} WHERE s.id = $1`,
        [sessionId],
      )
    )[0];
  },
  async findById(db: Queryable, id: number): Promise<UserWithOrgRow | undefined> {
    return (await db.query<UserWithOrgRow>(`${WITH_ORG} WHERE u.id = $1`, [id]))[0];
  },
  /** A user with organization and role by the user's code (the subject of an app's token). */
  async findWithOrgByCode(db: Queryable, userCode: string): Promise<UserWithOrgRow | undefined> {
    return (await db.query<UserWithOrgRow>(`${WITH_ORG} WHERE u.user_code = $1`, [userCode]))[0];
  },
  /** Whether any user answers to this identifier (their code, account or email), as an app's login_hint names one. */
  async existsByIdentifier(db: Queryable, identifier: string): Promise<boolean> {
    const rows = await db.query(
      `SELECT 1 FROM users WHERE user_code = $1 OR lower(account) = lower($1) OR lower(email) = lower($1) LIMIT 1`,
      [identifier],
    );
    return rows.length > 0;
  },
  async findByEmail(db: Queryable, email: string): Promise<UserWithOrgRow | undefined> {
    return (await db.query<UserWithOrgRow>(`${WITH_ORG} WHERE lower(u.email) = lower($1)`, [email]))[0];
  },
  /** Who a password reset by an administrator is for, and where their mail goes. */
  async findByCode(db: Queryable, userCode: string) {
    const [row] = await db.query<{
      id: number;
      organization_id: number;
      role_id: number;
      account: string;
      email: string;
      language: string;
      display_name: string;
    }>(
      `SELECT id, organization_id, role_id, account, email, language, display_name
         FROM users
        WHERE user_code = $1`,
      [userCode],
    );
    return row;
  },
  async insert(
    db: Queryable,
    u: {
      userCode: string;
      account: string;
      email: string;
      phone: string | null;
      displayName: string;
      organizationId: number;
      roleId: number;
      status: number;
      isOrgAdmin: boolean;
      language: string;
      passwordHash: string;
      forceChangePassword?: boolean;
      toothNumberingSystem?: ToothNumberingSystem;
    },
  ): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO users (user_code, account, email, phone, display_name, organization_id, role_id, status, is_org_admin, language, password_hash, force_change_password,
                          tooth_numbering_system)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
      [
        u.userCode,
        u.account,
        u.email,
        u.phone,
        u.displayName,
        u.organizationId,
        u.roleId,
        u.status,
        u.isOrgAdmin,
        u.language,
        u.passwordHash,
        u.forceChangePassword ?? false,
        u.toothNumberingSystem ?? 'fdi',
      ],
    );
    return Number(row!.id);
  },
  async setStatus(db: Queryable, id: number, status: number) {
    await db.query(`UPDATE users SET status = $2, updated_at = now() WHERE id = $1`, [id, status]);
  },
  /** A user added by an administrator becomes active once they set their password. */
  async activateInvited(db: Queryable, id: number) {
    await db.query(`UPDATE users SET status = 1, updated_at = now() WHERE id = $1 AND status = 0`, [id]);
  },
  async setPassword(db: Queryable, id: number, passwordHash: string, opts: { clearForce: boolean }) {
    await db.query(
      `UPDATE users SET password_hash = $2, password_changed_at = now(), updated_at = now(),
              force_change_password = CASE WHEN $3 THEN false ELSE force_change_password END WHERE id = $1`,
      [id, passwordHash, opts.clearForce],
    );
  },
  /** A temporary password from an administrator: the next sign-in must change it. */
  async setTemporaryPassword(db: Queryable, id: number, passwordHash: string) {
    await db.query(
      `UPDATE users
          SET password_hash = $2, force_change_password = true, password_changed_at = now(), updated_at = now()
        WHERE id = $1`,
      [id, passwordHash],
    );
  },
  async update(db: Queryable, id: number, fields: Record<string, unknown>) {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (!entries.length) return;
    const sets = entries.map(([k], i) => `${k} = $${i + 2}`);
    await db.query(`UPDATE users SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [
      id,
      ...entries.map(([, v]) => v),
    ]);
  },
  /** Every user of an organization that is being purged. */
  async deleteOfOrganization(db: Queryable, orgId: number) {
    await db.query(
      `DELETE FROM users
        WHERE organization_id = $1`,
      [orgId],
    );
  },
  async superAdmins(db: Queryable): Promise<Array<{ email: string; language: string; display_name: string }>> {
    return db.query(
      `SELECT u.email, u.language, u.display_name FROM users u JOIN organizations o ON o.id = u.organization_id
        WHERE o.type = 1 AND u.status = 1 AND u.receive_email`,
    );
  },
};
