import { hashPassword, newCode, newToken } from '../../platform/crypto.js';
import {
  defaultToothNumbering,
  normalizeToothNumbering,
  OrgType,
  UserStatus,
  type ManagedUser,
  type SaveUserBody,
  type UserListQuery,
} from '@portal/contracts';
import type { Config } from '../../config.js';
import type { AuthContext } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail.js';
import { OrganizationsService } from '../organizations/organizations.service.js';
import type { RolesService } from '../roles/roles.service.js';
import { emailTokens } from './email-tokens.repository.js';
import { usersAdminRepository, type ManagedUserRow } from './users-admin.repository.js';
import { usersRepository } from './users.repository.js';
import { SignInIdentifiers } from './sign-in-identifiers.service.js';
import type { UserSessions } from './user-sessions.js';
import { UsersService } from './users.service.js';

/** How long the set-password link of a user an administrator added stays valid. */
export const SET_PASSWORD_VALIDITY_HOURS = 72;

function toManaged(r: ManagedUserRow, self: number, manageable: boolean): ManagedUser {
  return {
    userCode: r.user_code,
    account: r.account,
    displayName: r.display_name,
    nickname: r.nickname,
    email: r.email,
    phone: r.phone,
    gender: r.gender,
    status: r.status,
    role: { code: r.role_code, name: r.role_name, builtIn: r.role_built_in },
    organization: { code: r.org_code, name: r.org_name, type: r.org_type },
    administrator: r.role_built_in,
    self: Number(r.id) === self,
    manageable,
    lastSignInAt: r.last_sign_in_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * Users as their administrators manage them (Account → Users). An organization's administrator manages its own
 * users, the super administrator everyone's. Nobody disables, deletes or demotes themselves, nor the last active
 * administrator of an organization; disabling or deleting ends the user's sessions at once.
 */
export class UsersAdminService {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly config: Config,
    private readonly roles: RolesService,
    private readonly sessions: UserSessions,
  ) {}

  private isSuper(auth: AuthContext) {
    return auth.orgType === OrgType.Inner;
  }

  /** The organization whose users the caller manages: its own, or any (null) for the super administrator. */
  private scope(auth: AuthContext): number | null {
    return this.isSuper(auth) ? null : auth.organizationId;
  }

  async list(auth: AuthContext, q: UserListQuery) {
    let orgId = this.scope(auth);
    if (orgId === null && q.organizationCode) {
      const org = await OrganizationsService.findByCode(this.db, q.organizationCode);
      if (!org) return { total: 0, list: [] };
      orgId = Number(org.id);
    }
    let roleId: number | undefined;
    if (q.roleCode) {
      const [role] = await this.roles.rolesByCodes([q.roleCode]);
      if (!role) return { total: 0, list: [] };
      roleId = Number(role.id);
    }
    const { total, rows } = await usersAdminRepository.list(this.db, orgId, { ...q, roleId });
    const within = await this.rolesWithinCaller(
      auth,
      rows.map((r) => Number(r.role_id)),
    );
    return { total, list: rows.map((r) => toManaged(r, auth.userId, within.has(Number(r.role_id)))) };
  }

  async detail(auth: AuthContext, userCode: string) {
    const row = await this.target(auth, userCode);
    const within = await this.rolesWithinCaller(auth, [Number(row.role_id)]);
    return toManaged(row, auth.userId, within.has(Number(row.role_id)));
  }

  /** Which of these roles hold nothing beyond the caller's permissions: their users are the caller's to manage. */
  private async rolesWithinCaller(auth: AuthContext, roleIds: number[]) {
    const within = new Set<number>();
    for (const id of new Set(roleIds)) {
      if (await this.roles.isWithinCaller(auth, id)) within.add(id);
    }
    return within;
  }

  /** What the super administrator resolves: identifiers two users held before they were one namespace. */
  async signInDisputes(auth: AuthContext) {
    if (!this.isSuper(auth)) fail('NO_PERMISSION');
    return { list: await SignInIdentifiers.disputes(this.db) };
  }

  private async target(auth: AuthContext, userCode: string, db: Queryable = this.db, lock = false) {
    const [row] = await usersAdminRepository.findByCodes(db, this.scope(auth), [userCode], lock);
    if (!row) fail('NOT_FOUND');
    return row;
  }

  /**
   * Adds a user (inactivated until they set their password from the mailed link) or edits one. Answers the user
   * and, for a new one, the outbox id of the set-password mail.
   */
  async save(auth: AuthContext, body: SaveUserBody): Promise<{ user: ManagedUser; mailId?: number }> {
    if (body.userCode) return { user: await this.edit(auth, body.userCode, body) };
    const org = await this.organizationFor(auth, body.organizationCode);
    const role = await this.roles.assignableRole(auth, body.roleCode, org);
    const userCode = newCode('u');
    const token = newToken();
    const place = await usersAdminRepository.organizationPlace(this.db, org.id);
    await this.db.transaction(async (tx) => {
      const id = await UsersService.insert(tx, {
        userCode,
        account: body.account,
        email: body.email,
        phone: body.phone || null,
        displayName: body.displayName,
        organizationId: org.id,
        roleId: Number(role.id),
        status: UserStatus.Inactivated,
        isOrgAdmin: role.built_in,
        language: auth.user.language,
        // Nobody knows this password: the user sets theirs from the mail.
        passwordHash: await hashPassword(newToken()),
        // The organization's chosen numbering, else the one read where it works.
        toothNumberingSystem: place.default_tooth_numbering
          ? normalizeToothNumbering(place.default_tooth_numbering)
          : defaultToothNumbering(place.region, place.country),
      });
      await usersRepository.update(tx, id, { nickname: body.nickname || null, gender: body.gender ?? null });
      await emailTokens.issueRaw(tx, id, 'set_password', SET_PASSWORD_VALIDITY_HOURS * 60, token);
    });
    const mailId = await this.mailer.send({
      to: body.email,
      language: auth.user.language,
      recipientName: body.displayName,
      template: 'userAdded',
      params: { organization: org.name, account: body.account, hours: SET_PASSWORD_VALIDITY_HOURS },
      link: `${this.config.publicUrl}/set-pass/${token}`,
    });
    return { user: await this.detail(auth, userCode), mailId };
  }

  private async organizationFor(auth: AuthContext, organizationCode?: string) {
    if (organizationCode && this.isSuper(auth)) {
      const org = await OrganizationsService.findByCode(this.db, organizationCode);
      if (!org) fail('NOT_FOUND');
      return { id: Number(org.id), type: org.type, name: org.name };
    }
    return { id: auth.organizationId, type: auth.orgType, name: auth.user.org_name };
  }

  private async edit(auth: AuthContext, userCode: string, body: SaveUserBody) {
    await this.db.transaction(async (tx) => {
      const target = await this.target(auth, userCode, tx, true);
      await this.roles.assertRolesWithinCaller(auth, [Number(target.role_id)], tx);
      const org = { id: Number(target.organization_id), type: target.org_type };
      const role = await this.roles.assignableRole(auth, body.roleCode, org, tx);
      const roleChanges = Number(role.id) !== Number(target.role_id);
      if (roleChanges && Number(target.id) === auth.userId) fail('CANNOT_CHANGE_SELF');
      if (roleChanges && target.role_built_in && !role.built_in && target.status === UserStatus.Activated) {
        await this.assertOtherAdministrator(tx, target, [Number(target.id)]);
      }
      await SignInIdentifiers.change(tx, Number(target.id), {
        account: body.account,
        email: body.email,
        phone: body.phone || null,
      });
      await usersRepository.update(tx, Number(target.id), {
        account: body.account,
        email: body.email,
        phone: body.phone || null,
        display_name: body.displayName,
        nickname: body.nickname || null,
        gender: body.gender ?? null,
        role_id: Number(role.id),
        is_org_admin: role.built_in,
      });
    });
    return this.detail(auth, userCode);
  }

  private async assertOtherAdministrator(db: Queryable, target: ManagedUserRow, leaving: number[]) {
    if ((await usersAdminRepository.otherActiveAdministrators(db, Number(target.organization_id), leaving)) === 0) {
      fail('LAST_ADMINISTRATOR', { name: target.display_name, organization: target.org_name });
    }
  }

  /** The users of a batch, locked, after the rules every batch change shares: all or none. */
  private async batch(auth: AuthContext, db: Queryable, codes: string[], leaving: boolean) {
    const rows = await usersAdminRepository.findByCodes(db, this.scope(auth), [...new Set(codes)], true);
    if (rows.length !== new Set(codes).size) fail('NOT_FOUND');
    await this.roles.assertRolesWithinCaller(
      auth,
      rows.map((r) => Number(r.role_id)),
      db,
    );
    if (!leaving) return rows;
    if (rows.some((r) => Number(r.id) === auth.userId)) fail('CANNOT_CHANGE_SELF');
    const ids = rows.map((r) => Number(r.id));
    for (const r of rows) {
      if (r.role_built_in && r.status === UserStatus.Activated) await this.assertOtherAdministrator(db, r, ids);
    }
    return rows;
  }

  async enable(auth: AuthContext, codes: string[]) {
    return this.db.transaction(async (tx) => {
      const rows = await this.batch(auth, tx, codes, false);
      return (
        await usersAdminRepository.setStatus(
          tx,
          rows.map((r) => Number(r.id)),
          UserStatus.Activated,
          [UserStatus.Disabled],
        )
      ).length;
    });
  }

  /** Disables users; their sessions end at once (the next call answers 401). */
  async disable(auth: AuthContext, codes: string[]) {
    return this.db.transaction(async (tx) => {
      const rows = await this.batch(auth, tx, codes, true);
      const ids = rows.map((r) => Number(r.id));
      const changed = await usersAdminRepository.setStatus(tx, ids, UserStatus.Disabled, [
        UserStatus.Inactivated,
        UserStatus.Activated,
      ]);
      for (const id of ids) await this.sessions.endSessionsOfUser(tx, id, 'user_disabled');
      return changed.length;
    });
  }

  /** Deletes users: their cases, orders and events stay, authored by a former user; their sessions end. */
  async delete(auth: AuthContext, codes: string[]) {
    return this.db.transaction(async (tx) => {
      const rows = await this.batch(auth, tx, codes, true);
      const ids = rows.map((r) => Number(r.id));
      await usersAdminRepository.softDelete(tx, ids);
      await SignInIdentifiers.releaseAll(tx, ids);
      for (const id of ids) await this.sessions.endSessionsOfUser(tx, id, 'user_deleted');
      return ids.length;
    });
  }
}
