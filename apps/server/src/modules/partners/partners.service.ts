import {
  canPartner,
  CONTACT_VERIFICATION_VALIDITY_DAYS,
  OrgStatus,
  OrgType,
  PARTNER_TRANSITIONS,
  PartnerStatus,
  ReviewStatus,
  type PartnerAction,
} from '@portal/contracts';
import type { Config } from '../../config.js';
import type { AuthContext } from '../../platform/auth.js';
import type { Db, Queryable } from '../../platform/db.js';
import { AppError, fail } from '../../platform/errors.js';
import { newCode, newToken, sha256 } from '../../platform/crypto.js';
import type { Mailer } from '../../platform/mail.js';

interface PartnershipRow {
  id: number;
  code: string;
  clinic_organization_id: number;
  lab_organization_id: number | null;
  invited_email: string | null;
  status: number;
  initiator_organization_id: number;
  created_at: Date;
  updated_at: Date;
}

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
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly config: Config,
    private readonly orders?: PartnershipOrders,
  ) {}

  /** Only clinic and laboratory administrators manage partners (§6). */
  private manager(auth: AuthContext) {
    if ((auth.orgType !== OrgType.Clinic && auth.orgType !== OrgType.Lab) || !auth.user.is_org_admin)
      fail('PARTNER_NO_ACCESS');
    return { orgId: auth.organizationId, isClinic: auth.orgType === OrgType.Clinic };
  }

  /** The other side must be of the opposite type, approved and active. */
  private async counterpart(auth: AuthContext, where: { code?: string; invitationCode?: string }) {
    const me = this.manager(auth);
    const [org] = await this.db.query<{
      id: number;
      code: string;
      name: string;
      type: number;
      city: string | null;
      country: string | null;
      status: number;
      review_status: number;
    }>(
      `SELECT id, code, name, type, city, country, status, review_status FROM organizations WHERE ${where.code ? 'code = $1' : 'invitation_code = upper($1)'}`,
      [where.code ?? where.invitationCode],
    );
    if (!org || org.status !== OrgStatus.Active || org.review_status !== ReviewStatus.Approved) fail('NOT_FOUND');
    if (org.type !== (me.isClinic ? OrgType.Lab : OrgType.Clinic)) fail('PARTNER_INVALID_TARGET');
    return { me, org };
  }

  async checkInvitationCode(auth: AuthContext, invitationCode: string) {
    const { org } = await this.counterpart(auth, { invitationCode });
    return { organizationCode: org.code, name: org.name, type: org.type, city: org.city, country: org.country };
  }

  async search(auth: AuthContext, keyword: string) {
    const me = this.manager(auth);
    const rows = await this.db.query<{
      code: string;
      name: string;
      type: number;
      city: string | null;
      country: string | null;
    }>(
      `SELECT code, name, type, city, country FROM organizations
        WHERE type = $1 AND status = 1 AND review_status = 1 AND name ILIKE '%' || $2 || '%' ORDER BY name LIMIT 20`,
      [me.isClinic ? OrgType.Lab : OrgType.Clinic, keyword.replace(/[\\%_]/g, (m) => `\\${m}`)],
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
    const locked = p
      ? (await tx.query<PartnershipRow>('SELECT * FROM partnerships WHERE id = $1 FOR UPDATE', [p.id]))[0]!
      : null;
    const from = locked ? (locked.status as (typeof PartnerStatus)[keyof typeof PartnerStatus]) : null;
    const side =
      !locked || action === 'apply' || Number(locked.initiator_organization_id) === actor.organizationId
        ? 'initiator'
        : 'responder';
    if (!canPartner(action, from, side)) throw new AppError('PARTNER_TRANSITION', {}, { from, action });
    const to = PARTNER_TRANSITIONS[action].to;
    const row = locked
      ? (
          await tx.query<PartnershipRow>(
            `UPDATE partnerships SET status = $2, updated_at = now(), initiator_organization_id = CASE WHEN $3 THEN $4 ELSE initiator_organization_id END
            WHERE id = $1 RETURNING *`,
            [locked.id, to, action === 'apply', actor.organizationId],
          )
        )[0]!
      : await create!();
    await tx.query(
      `INSERT INTO partnership_events (partnership_id, action, from_status, to_status, reason, actor_user_id, actor_organization_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [row.id, action, from, to, reason, actor.userId, actor.organizationId],
    );
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
    return tx
      .query<PartnershipRow>(
        `INSERT INTO partnerships (code, clinic_organization_id, lab_organization_id, status, initiator_organization_id, invited_email) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [newCode('p'), clinicId, labId, status, initiatorId, email],
      )
      .then((r) => r[0]!);
  }

  async apply(auth: AuthContext, organizationCode: string, reason?: string) {
    const { me, org } = await this.counterpart(auth, { code: organizationCode });
    const [clinicId, labId] = me.isClinic ? [me.orgId, Number(org.id)] : [Number(org.id), me.orgId];
    const row = await this.db
      .transaction(async (tx) => {
        const [existing] = await tx.query<PartnershipRow>(
          'SELECT * FROM partnerships WHERE clinic_organization_id = $1 AND lab_organization_id = $2',
          [clinicId, labId],
        );
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
    const [known] = await this.db.query<{ code: string; type: number }>(
      'SELECT o.code, o.type FROM users u JOIN organizations o ON o.id = u.organization_id WHERE lower(u.email) = lower($1)',
      [email],
    );
    if (known) {
      if (known.type !== OrgType.Lab) fail('PARTNER_INVALID_TARGET');
      return { partner: await this.apply(auth, known.code), mailId: undefined };
    }
    const token = newToken();
    const row = await this.db.transaction(async (tx) => {
      const created = await this.move(tx, null, 'invite', auth, null, () =>
        this.insertPartnership(tx, me.orgId, null, PartnerStatus.Temporary, me.orgId, email),
      );
      await tx.query(
        `INSERT INTO partner_invitations (token_hash, partnership_id, email, expires_at) VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
        [sha256(token), created.id, email, CONTACT_VERIFICATION_VALIDITY_DAYS],
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
      const [inv] = await tx.query<{ partnership_id: number; expired: boolean; used_at: Date | null }>(
        'SELECT partnership_id, expires_at < now() AS expired, used_at FROM partner_invitations WHERE token_hash = $1 FOR UPDATE',
        [sha256(token)],
      );
      if (!inv || inv.used_at) fail('INVALID_LINK');
      if (inv.expired) fail('INVITATION_EXPIRED');
      const [p] = await tx.query<PartnershipRow>('SELECT * FROM partnerships WHERE id = $1', [inv.partnership_id]);
      const [clash] = await tx.query(
        'SELECT 1 FROM partnerships WHERE clinic_organization_id = $1 AND lab_organization_id = $2',
        [p!.clinic_organization_id, me.orgId],
      );
      if (clash) fail('PARTNER_TRANSITION');
      await tx.query('UPDATE partnerships SET lab_organization_id = $2 WHERE id = $1', [p!.id, me.orgId]);
      await this.move(tx, { ...p!, lab_organization_id: me.orgId }, 'confirm', auth, null);
      await tx.query('UPDATE partner_invitations SET used_at = now() WHERE token_hash = $1', [sha256(token)]);
      return p!.code;
    });
    return this.detail(auth, code);
  }

  /** A partnership the caller's organization is a side of; anything else is not found. */
  private async mine(orgId: number, partnerCode: string) {
    const [p] = await this.db.query<PartnershipRow>(
      'SELECT * FROM partnerships WHERE code = $1 AND (clinic_organization_id = $2 OR lab_organization_id = $2)',
      [partnerCode, orgId],
    );
    if (!p) fail('NOT_FOUND');
    return p;
  }

  private async view(orgId: number, rows: PartnershipRow[]) {
    const otherIds = rows
      .map((p) => (Number(p.clinic_organization_id) === orgId ? p.lab_organization_id : p.clinic_organization_id))
      .filter((x) => x !== null);
    const orgs = new Map(
      (
        await this.db.query<{
          id: number;
          code: string;
          name: string;
          type: number;
          city: string | null;
          country: string | null;
        }>('SELECT id, code, name, type, city, country FROM organizations WHERE id = ANY ($1::bigint[])', [otherIds])
      ).map((o) => [Number(o.id), o]),
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

  async list(
    auth: AuthContext,
    q: { tab: keyof typeof TAB_STATUSES; pageNum: number; pageSize: number; keyword?: string },
  ) {
    const me = this.manager(auth);
    const rows = await this.db.query<PartnershipRow & { total: string }>(
      `SELECT p.*, count(*) OVER () AS total FROM partnerships p
         LEFT JOIN organizations o ON o.id = CASE WHEN p.clinic_organization_id = $1 THEN p.lab_organization_id ELSE p.clinic_organization_id END
        WHERE (p.clinic_organization_id = $1 OR p.lab_organization_id = $1) AND p.status = ANY ($2::smallint[])
          AND ($3::text IS NULL OR COALESCE(o.name, p.invited_email) ILIKE '%' || $3 || '%')
        ORDER BY p.updated_at DESC, p.id DESC LIMIT $4 OFFSET $5`,
      [me.orgId, TAB_STATUSES[q.tab], q.keyword ?? null, q.pageSize, (q.pageNum - 1) * q.pageSize],
    );
    return { total: rows.length ? Number(rows[0]!.total) : 0, list: await this.view(me.orgId, rows) };
  }

  async detail(auth: AuthContext, partnerCode: string) {
    const me = this.manager(auth);
    const p = await this.mine(me.orgId, partnerCode);
    const [view] = await this.view(me.orgId, [p]);
    const events = await this.db.query<{
      action: string;
      from_status: number | null;
      to_status: number;
      reason: string | null;
      actor: string | null;
      org: string | null;
      created_at: Date;
    }>(
      `SELECT e.action, e.from_status, e.to_status, e.reason, u.display_name AS actor, o.name AS org, e.created_at
         FROM partnership_events e LEFT JOIN users u ON u.id = e.actor_user_id LEFT JOIN organizations o ON o.id = e.actor_organization_id
        WHERE e.partnership_id = $1 ORDER BY e.id`,
      [p.id],
    );
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
