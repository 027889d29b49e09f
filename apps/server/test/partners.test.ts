import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType, PARTNER_TRANSITIONS, PartnerStatus, ReviewStatus } from '@portal/contracts';
import { seedDemo } from '../src/seed.js';
import { createHarness, createUser, linkFromOutbox, login, PASSWORD, snapshot, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function side(orgType: number, extra: Parameters<typeof createUser>[1] = {}) {
  const u = await createUser(h.db, { orgType, ...extra });
  const [org] = await h.db.query<{ code: string; invitation_code: string }>(
    'SELECT code, invitation_code FROM organizations WHERE id = $1',
    [u.organizationId],
  );
  return {
    ...u,
    token: (await login(h, u.account)).accessToken,
    code: org!.code,
    invitationCode: org!.invitation_code,
  };
}

describe('partnerships', () => {
  it('the demo clinic and laboratory start as partners, with the history of how', async () => {
    const demo = await createHarness();
    try {
      await seedDemo(demo.db, PASSWORD, 'eu');
      const clinic = (await login(demo, 'clinic')).accessToken;
      const lab = (await login(demo, 'lab')).accessToken;
      const mine = (await demo.call('partner/list', { token: clinic, body: { tab: 'mine' } })).data;
      expect(mine.total).toBe(1);
      expect(mine.list[0]).toMatchObject({ status: PartnerStatus.Accepted });
      expect(JSON.stringify(mine.list[0])).toContain('Precision Dental Lab');
      expect((await demo.call('partner/list', { token: lab, body: { tab: 'mine' } })).data.total).toBe(1);
      const events = await demo.db.query<{ action: string }>('SELECT action FROM partnership_events ORDER BY id');
      expect(events.map((e) => e.action)).toEqual(['apply', 'accept']);
    } finally {
      await demo.close();
    }
  });

  it('finds a laboratory by invitation code or name, applies, and the lab accepts; either side terminates; apply again', async () => {
    const clinic = await side(OrgType.Clinic);
    const lab = await side(OrgType.Lab);
    const found = await h.call('user/partner/checkInvitationCode', {
      token: clinic.token,
      body: { invitationCode: lab.invitationCode.toLowerCase() },
    });
    expect(found.data).toMatchObject({ organizationCode: lab.code, type: OrgType.Lab });
    // A code that leads to no organization: 410, the partner's name cannot be got (§8).
    const unknown = await h.call('user/partner/checkInvitationCode', {
      token: clinic.token,
      body: { invitationCode: 'NO-SUCH-CODE' },
    });
    expect([unknown.status, unknown.code, unknown.data]).toEqual([404, 410, null]);
    const search = await h.call('partner/search', { token: clinic.token, body: { keyword: lab.account.slice(0, 6) } });
    expect(search.data.list.some((o: { organizationCode: string }) => o.organizationCode === lab.code)).toBe(true);

    const applied = await h.call('partner/apply', { token: clinic.token, body: { organizationCode: lab.code } });
    expect(applied.data).toMatchObject({
      status: PartnerStatus.Applying,
      initiatedByMe: true,
      organization: { code: lab.code },
    });
    const code = applied.data.partnerCode;
    // The lab sees it to confirm; the clinic cannot accept its own application.
    expect((await h.call('partner/list', { token: lab.token, body: { tab: 'toConfirm' } })).data.list[0]).toMatchObject(
      { partnerCode: code, initiatedByMe: false },
    );
    const before = await snapshot(h.db);
    const selfAccept = await h.call('partner/accept', { token: clinic.token, body: { partnerCode: code } });
    expect([selfAccept.status, selfAccept.code]).toEqual([409, 2032]);
    expect(await snapshot(h.db)).toBe(before);
    expect((await h.call('partner/accept', { token: lab.token, body: { partnerCode: code } })).data.status).toBe(
      PartnerStatus.Accepted,
    );
    expect((await h.call('partner/list', { token: clinic.token, body: { tab: 'mine' } })).data.total).toBe(1);
    expect(
      (await h.call('partner/terminate', { token: lab.token, body: { partnerCode: code, reason: 'Closing the lab' } }))
        .data.status,
    ).toBe(PartnerStatus.Terminated);
    expect((await h.call('partner/terminate', { token: clinic.token, body: { partnerCode: code } })).code).toBe(2032);
    // The lab associates the clinic again.
    const again = await h.call('partner/apply', { token: lab.token, body: { organizationCode: clinic.code } });
    expect(again.data).toMatchObject({ partnerCode: code, status: PartnerStatus.Applying, initiatedByMe: true });
    expect((await h.call('partner/accept', { token: clinic.token, body: { partnerCode: code } })).data.status).toBe(
      PartnerStatus.Accepted,
    );
    const detail = (await h.call('user/getPartnerInfo', { token: clinic.token, body: { partnerCode: code } })).data;
    expect(
      detail.events.map((e: { action: string; from: number | null; to: number }) => [e.action, e.from, e.to]),
    ).toEqual([
      ['apply', null, 0],
      ['accept', 0, 1],
      ['terminate', 1, 4],
      ['apply', 4, 0],
      ['accept', 0, 1],
    ]);
    expect(detail.events[2]).toMatchObject({ reason: 'Closing the lab', actorOrganization: `Org ${lab.account}` });
  });

  it('rejects with a reason, cancels only its own application, and enforces every move of the table', async () => {
    const clinic = await side(OrgType.Clinic);
    const lab = await side(OrgType.Lab);
    const code = (await h.call('partner/apply', { token: clinic.token, body: { organizationCode: lab.code } })).data
      .partnerCode;
    expect((await h.call('partner/reject', { token: lab.token, body: { partnerCode: code } })).data.field).toBe(
      'reason',
    );
    expect((await h.call('partner/cancel', { token: lab.token, body: { partnerCode: code } })).code).toBe(2032);
    expect(
      (await h.call('partner/reject', { token: lab.token, body: { partnerCode: code, reason: 'Fully booked' } })).data
        .status,
    ).toBe(PartnerStatus.Rejected);
    for (const action of ['accept', 'reject', 'cancel', 'terminate'] as const) {
      expect(
        (await h.call(`partner/${action}`, { token: lab.token, body: { partnerCode: code, reason: 'x' } })).code,
        action,
      ).toBe(2032);
    }
    expect(
      (await h.call('partner/apply', { token: clinic.token, body: { organizationCode: lab.code } })).data.status,
    ).toBe(PartnerStatus.Applying);
    expect((await h.call('partner/cancel', { token: clinic.token, body: { partnerCode: code } })).data.status).toBe(
      PartnerStatus.Canceled,
    );
    expect((await h.call('partner/list', { token: clinic.token, body: { tab: 'history' } })).data.total).toBe(1);
    // The table in contracts is what the server enforces.
    expect(PARTNER_TRANSITIONS.accept.from).toEqual([PartnerStatus.Applying]);
  });

  it('keeps partner management to clinic and laboratory administrators, and partnerships to their two sides', async () => {
    const dealer = await side(OrgType.Dealer);
    const res = await h.call('partner/list', { token: dealer.token, body: {} });
    expect([res.status, res.code, res.msg]).toEqual([
      403,
      2031,
      'This account has no access rights. Log in with an administrator account.',
    ]);
    const clinic = await side(OrgType.Clinic);
    const otherClinic = await side(OrgType.Clinic);
    const lab = await side(OrgType.Lab);
    expect(
      (await h.call('partner/apply', { token: clinic.token, body: { organizationCode: otherClinic.code } })).code,
    ).toBe(2033);
    const pending = await createUser(h.db, { orgType: OrgType.Lab, reviewStatus: ReviewStatus.Pending });
    const [pendingOrg] = await h.db.query<{ code: string }>('SELECT code FROM organizations WHERE id = $1', [
      pending.organizationId,
    ]);
    expect(
      (await h.call('partner/apply', { token: clinic.token, body: { organizationCode: pendingOrg!.code } })).code,
    ).toBe(404);
    const code = (await h.call('partner/apply', { token: clinic.token, body: { organizationCode: lab.code } })).data
      .partnerCode;
    for (const path of ['user/getPartnerInfo', 'partner/accept', 'partner/terminate']) {
      expect((await h.call(path, { token: otherClinic.token, body: { partnerCode: code } })).code, path).toBe(404);
    }
  });

  it('invites an unregistered laboratory by email; it registers, confirms, and the partnership is accepted', async () => {
    const clinic = await side(OrgType.Clinic);
    const invited = await h.call('partner/inviteLab', { token: clinic.token, body: { email: 'new-lab@example.test' } });
    expect(invited.data).toMatchObject({
      status: PartnerStatus.Temporary,
      invitedEmail: 'new-lab@example.test',
      organization: { name: 'new-lab@example.test' },
    });
    const token = await linkFromOutbox(h.db, 'new-lab@example.test', '/register\\?invitation=');
    const lab = await side(OrgType.Lab, { email: 'new-lab@example.test' });
    const confirmed = await h.call('partner/confirmInvitation', { token: lab.token, body: { token } });
    expect(confirmed.data).toMatchObject({ status: PartnerStatus.Accepted, organization: { code: clinic.code } });
    expect((await h.call('partner/confirmInvitation', { token: lab.token, body: { token } })).code).toBe(2021);
    // An expired invitation says so.
    await h.call('partner/inviteLab', { token: clinic.token, body: { email: 'late-lab@example.test' } });
    const late = await linkFromOutbox(h.db, 'late-lab@example.test', '/register\\?invitation=');
    await h.db.query(
      `UPDATE partner_invitations SET expires_at = now() - interval '1 minute' WHERE email = 'late-lab@example.test'`,
    );
    const lateLab = await side(OrgType.Lab, { email: 'late-lab@example.test' });
    const res = await h.call('partner/confirmInvitation', { token: lateLab.token, body: { token: late } });
    expect([res.code, res.msg]).toEqual([2034, 'The invitation has expired.']);
    // Inviting a registered laboratory's address applies to it directly.
    const direct = await h.call('partner/inviteLab', { token: clinic.token, body: { email: lateLab.email } });
    expect(direct.data.status).toBe(PartnerStatus.Applying);
  });

  it('leaves one winner when both sides act at once', async () => {
    const clinic = await side(OrgType.Clinic);
    const lab = await side(OrgType.Lab);
    const code = (await h.call('partner/apply', { token: clinic.token, body: { organizationCode: lab.code } })).data
      .partnerCode;
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => h.call('partner/accept', { token: lab.token, body: { partnerCode: code } })),
      ...Array.from({ length: 5 }, () =>
        h.call('partner/reject', { token: lab.token, body: { partnerCode: code, reason: 'no' } }),
      ),
      ...Array.from({ length: 5 }, () =>
        h.call('partner/cancel', { token: clinic.token, body: { partnerCode: code } }),
      ),
    ]);
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    expect(results.filter((r) => r.code === 2032)).toHaveLength(14);
    const events = (await h.call('user/getPartnerInfo', { token: clinic.token, body: { partnerCode: code } })).data
      .events;
    expect(events).toHaveLength(2);
  });
});
