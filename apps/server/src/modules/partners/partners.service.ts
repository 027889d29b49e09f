import {
  canPartner,
  CONTACT_VERIFICATION_VALIDITY_DAYS,
  OrgStatus,
  OrgType,
  PARTNER_TRANSITIONS,
  PartnerStatus,
  ReviewStatus,
  type PartnerAction,
  type PartnerListQuery,
} from '@portal/contracts';
import type { Config } from '../../config.js';
import type { AuthContext } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, fail } from '../../platform/errors.js';
import { newCode, newToken, sha256 } from '../../platform/crypto.js';
import type { Mailer } from '../../platform/mail.js';
import { partnersRepository, type PartnershipRow } from './partners.repository.js';

const iso = (d: Date) => new Date(d).toISOString();
const TAB_STATUSES = {
  mine: [PartnerStatus.Accepted],
  toConfirm: [PartnerStatus.Applying, PartnerStatus.Temporary],
  history: [PartnerStatus.Rejected, PartnerStatus.Canceled, PartnerStatus.Terminated],
};

/** What ending a partnership does to its orders (the orders service owns them). */
export interface PartnershipOrders {
  /** Cancels the partnership's pending orders in the ending transaction; answers the batch to mail afterwards. */
  cancelPending(tx: Queryable, partnershipId: number, actor: AuthContext): Promise<string | null>;
  mailBatch(batch: string): Promise<unknown>;
}

/** Partnerships between clinics and laboratories: one state machine, every change an event. */
export class PartnersService {
  // Static: what other modules change of partnerships inside their own transaction (`tx`). The partnership tables
  // are written by this module alone.

  /**
   * The organization closed: each of its partnerships that is temporary, applying or accepted is terminated, with an
   * event saying why (`organization_closed`), so its partners see it ended.
   */
  static endAllOf(tx: Queryable, organizationId: number, userId: number) {
    return partnersRepository.endAllOf(tx, organizationId, userId);
  }

  /** An organization's purge: its partnerships go, and the events its people wrote elsewhere no longer name them. */
  static deleteOfOrganization(tx: Queryable, organizationId: number) {
    return partnersRepository.deleteOfOrganization(tx, organizationId);
  }

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly config: Config,
    private readonly orders?: PartnershipOrders,
  ) {}

  /**
   * Partners are clinics' and laboratories' (§6); who of them may manage partners is the routes' permission
   * (partner:view, partner:edit), which their administrators hold.
   */
  private manager(auth: AuthContext) {
    if (auth.orgType !== OrgType.Clinic && auth.orgType !== OrgType.Lab) fail('PARTNER_NO_ACCESS');
    return { orgId: auth.organizationId, isClinic: auth.orgType === OrgType.Clinic };
  }

  /**
   * The other side must be of the opposite type, approved and active. An invitation code that leads to none is
   * 410 (§8: the partner's name cannot be got), which the dialog shows by the code field rather than as a toast.
   */
  private async counterpart(auth: AuthContext, where: { code?: string; invitationCode?: string }) {
    const me = this.manager(auth);
    const org = await partnersRepository.organization(this.db, where);
    if (!org || org.status !== OrgStatus.Active || org.review_status !== ReviewStatus.Approved)
      fail(where.invitationCode === undefined ? 'NOT_FOUND' : 'PARTNER_NAME_UNAVAILABLE');
    if (org.type !== (me.isClinic ? OrgType.Lab : OrgType.Clinic)) fail('PARTNER_INVALID_TARGET');
    return { me, org };
  }

  async checkInvitationCode(auth: AuthContext, invitationCode: string) {
    const { org } = await this.counterpart(auth, { invitationCode });
    return { organizationCode: org.code, name: org.name, type: org.type, city: org.city, country: org.country };
  }

  async search(auth: AuthContext, keyword: string) {
    const me = this.manager(auth);
    const rows = await partnersRepository.search(
      this.db,
      me.isClinic ? OrgType.Lab : OrgType.Clinic,
      keyword.replace(/[\\%_]/g, (m) => `\\${m}`),
    );
    return {
      list: rows.map((r) => ({
        organizationCode: r.code,
        name: r.name,
        type: r.type,
        city: r.city,
        country: r.country,
      })),
    };
  }

  /**
   * The one place partnership statuses change: a row lock, the transition table, then the event.
   * Concurrent conflicting moves leave one winner; the loser gets 2032 and nothing changes.
   */
  private async move(
    tx: Queryable,
    p: PartnershipRow | null,
    action: PartnerAction,
    actor: AuthContext,
    reason: string | null,
    create?: () => Promise<PartnershipRow>,
  ) {
    const locked = p ? (await partnersRepository.lock(tx, p.id))! : null;
    const from = locked ? (locked.status as (typeof PartnerStatus)[keyof typeof PartnerStatus]) : null;
    const side =
      !locked || action === 'apply' || Number(locked.initiator_organization_id) === actor.organizationId
        ? 'initiator'
        : 'responder';
    if (!canPartner(action, from, side)) throw new AppError('PARTNER_TRANSITION', {}, { from, action });
    const to = PARTNER_TRANSITIONS[action].to;
    const row = locked
      ? await partnersRepository.setStatus(tx, locked.id, to, action === 'apply', actor.organizationId)
      : await create!();
    await partnersRepository.event(tx, {
      partnershipId: row.id,
      action,
      from,
      to,
      reason,
      userId: actor.userId,
      orgId: actor.organizationId,
    });
    return row;
  }

  private insertPartnership(
    tx: Queryable,
    clinicId: number,
    labId: number | null,
    status: number,
    initiatorId: number,
    email: string | null,
  ) {
    return partnersRepository.insert(tx, {
      code: newCode('p'),
      clinicOrgId: clinicId,
      labOrgId: labId,
      status,
      initiatorOrgId: initiatorId,
      invitedEmail: email,
    });
  }

  async apply(auth: AuthContext, organizationCode: string, reason?: string) {
    const { me, org } = await this.counterpart(auth, { code: organizationCode });
    const [clinicId, labId] = me.isClinic ? [me.orgId, Number(org.id)] : [Number(org.id), me.orgId];
    const row = await this.db
      .transaction(async (tx) => {
        const existing = await partnersRepository.findPair(tx, clinicId, labId);
        return this.move(tx, existing ?? null, 'apply', auth, reason ?? null, () =>
          this.insertPartnership(tx, clinicId, labId, PartnerStatus.Applying, me.orgId, null),
        );
      })
      .catch((err: unknown) => {
        // Two first applications at once: the pair's unique index lets one through.
        if ((err as { code?: string }).code === '23505') throw new AppError('PARTNER_TRANSITION');
        throw err;
      });
    return this.detail(auth, row.code);
  }

  async act(
    auth: AuthContext,
    partnerCode: string,
    action: Exclude<PartnerAction, 'invite' | 'apply' | 'confirm'>,
    reason?: string,
  ) {
    const me = this.manager(auth);
    if (action === 'reject' && !reason?.trim()) fail('PARAM_INVALID', { field: 'reason' }, { field: 'reason' });
    const p = await this.mine(me.orgId, partnerCode);
    const batch = await this.db.transaction(async (tx) => {
      await this.move(tx, p, action, auth, reason?.trim() || null);
      // Ending a partnership cancels the orders the laboratory has not taken; those in work finish as agreed.
      return action === 'terminate' && this.orders ? this.orders.cancelPending(tx, Number(p.id), auth) : null;
    });
    if (batch) void this.orders?.mailBatch(batch);
    return this.detail(auth, partnerCode);
  }

  /**
   * A clinic invites a laboratory that is not registered yet: a temporary partner and an emailed link. Answers the
   * partnership and the invitation mail's outbox id (none when the address belongs to a registered laboratory).
   */
  async inviteLab(auth: AuthContext, email: string) {
    const me = this.manager(auth);
    if (!me.isClinic) fail('PARTNER_INVALID_TARGET');
    const known = await partnersRepository.organizationOfUserEmail(this.db, email);
    if (known) {
      if (known.type !== OrgType.Lab) fail('PARTNER_INVALID_TARGET');
      return { partner: await this.apply(auth, known.code), mailId: undefined };
    }
    const token = newToken();
    const row = await this.db.transaction(async (tx) => {
      const created = await this.move(tx, null, 'invite', auth, null, () =>
        this.insertPartnership(tx, me.orgId, null, PartnerStatus.Temporary, me.orgId, email),
      );
      await partnersRepository.insertInvitation(
        tx,
        sha256(token),
        created.id,
        email,
        CONTACT_VERIFICATION_VALIDITY_DAYS,
      );
      return created;
    });
    const mailId = await this.mailer.send({
      to: email,
      language: auth.user.language,
      recipientName: email,
      template: 'partnerInvitation',
      params: { clinic: auth.user.org_name, days: CONTACT_VERIFICATION_VALIDITY_DAYS },
      link: `${this.config.publicUrl}/register?invitation=${token}`,
    });
    return { partner: await this.detail(auth, row.code), mailId };
  }

  /** The invited laboratory, registered and signed in, confirms: the partnership is accepted. */
  async confirmInvitation(auth: AuthContext, token: string) {
    const me = this.manager(auth);
    if (me.isClinic) fail('PARTNER_INVALID_TARGET');
    const code = await this.db.transaction(async (tx) => {
      const inv = await partnersRepository.lockInvitation(tx, sha256(token));
      if (!inv || inv.used_at) fail('INVALID_LINK');
      if (inv.expired) fail('INVITATION_EXPIRED');
      const p = await partnersRepository.findById(tx, inv.partnership_id);
      if (await partnersRepository.pairExists(tx, p!.clinic_organization_id, me.orgId)) fail('PARTNER_TRANSITION');
      await partnersRepository.setLab(tx, p!.id, me.orgId);
      await this.move(tx, { ...p!, lab_organization_id: me.orgId }, 'confirm', auth, null);
      await partnersRepository.markInvitationUsed(tx, sha256(token));
      return p!.code;
    });
    return this.detail(auth, code);
  }

  /** A partnership the caller's organization is a side of; anything else is not found. */
  private async mine(orgId: number, partnerCode: string) {
    const p = await partnersRepository.findOfOrganization(this.db, orgId, partnerCode);
    if (!p) fail('NOT_FOUND');
    return p;
  }

  private async view(orgId: number, rows: PartnershipRow[]) {
    const otherIds = rows
      .map((p) => (Number(p.clinic_organization_id) === orgId ? p.lab_organization_id : p.clinic_organization_id))
      .filter((x) => x !== null);
    const orgs = new Map(
      (await partnersRepository.organizationsByIds(this.db, otherIds)).map((o) => [Number(o.id), o]),
    );
    return rows.map((p) => {
      const otherId = Number(p.clinic_organization_id) === orgId ? p.lab_organization_id : p.clinic_organization_id;
      const o = otherId ? orgs.get(Number(otherId)) : undefined;
      return {
        partnerCode: p.code,
        status: p.status,
        organization: o
          ? { code: o.code, name: o.name, type: o.type, city: o.city, country: o.country }
          : { code: null, name: p.invited_email ?? '', type: OrgType.Lab, city: null, country: null },
        initiatedByMe: Number(p.initiator_organization_id) === orgId,
        invitedEmail: p.invited_email,
        createdAt: iso(p.created_at),
        updatedAt: iso(p.updated_at),
      };
    });
  }

  async list(auth: AuthContext, q: PartnerListQuery) {
    const me = this.manager(auth);
    const { total, rows } = await partnersRepository.list(
      this.db,
      me.orgId,
      TAB_STATUSES[q.tab],
      q.keyword ?? null,
      q.pageSize,
      (q.pageNum - 1) * q.pageSize,
    );
    return { total, list: await this.view(me.orgId, rows) };
  }

  async detail(auth: AuthContext, partnerCode: string) {
    const me = this.manager(auth);
    const p = await this.mine(me.orgId, partnerCode);
    const [view] = await this.view(me.orgId, [p]);
    const events = await partnersRepository.events(this.db, p.id);
    return {
      ...view!,
      events: events.map((e) => ({
        from: e.from_status,
        to: e.to_status,
        action: e.action,
        reason: e.reason,
        actorName: e.actor ?? '',
        actorOrganization: e.org ?? '',
        at: iso(e.created_at),
      })),
    };
  }
}
