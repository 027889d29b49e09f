import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType, PARTNER_TRANSITIONS, PartnerStatus, ReviewStatus, canPartner } from '@portal/contracts';
import { actor, refused, serviceWorld, type ServiceWorld } from './kit.js';

/**
 * PartnersService on its own: who may apply to whom, and the partnership state machine of contracts
 * (PARTNER_TRANSITIONS): request, accept, reject, cancel, terminate, each by the side the table names.
 */
let w: ServiceWorld;
let clinic: Awaited<ReturnType<typeof actor>>;

beforeAll(async () => {
  w = await serviceWorld();
  clinic = await actor(w.db, OrgType.Clinic);
});
afterAll(() => w.close());

type Status = (typeof PartnerStatus)[keyof typeof PartnerStatus];
const NAME = Object.fromEntries(Object.entries(PartnerStatus).map(([name, value]) => [value, name])) as Record<
  Status,
  string
>;
type Act = 'accept' | 'reject' | 'cancel' | 'terminate';
const REASON = 'Not taking new clinics';

/** A partnership the clinic started with a new laboratory, brought to `status` the legal way. */
async function partnershipIn(status: Status) {
  const lab = await actor(w.db, OrgType.Lab);
  const applied = await w.partners.apply(clinic, lab.orgCode);
  const code = applied.partnerCode;
  const steps: Partial<Record<Status, Array<['clinic' | 'lab', Act]>>> = {
    [PartnerStatus.Applying]: [],
    [PartnerStatus.Accepted]: [['lab', 'accept']],
    [PartnerStatus.Rejected]: [['lab', 'reject']],
    [PartnerStatus.Canceled]: [['clinic', 'cancel']],
    [PartnerStatus.Terminated]: [
      ['lab', 'accept'],
      ['lab', 'terminate'],
    ],
  };
  for (const [by, action] of steps[status]!) await w.partners.act(by === 'clinic' ? clinic : lab, code, action, REASON);
  expect((await w.partners.detail(clinic, code)).status).toBe(status);
  return { lab, code };
}

describe('applying', () => {
  it('starts an application the other side sees, with an event', async () => {
    const lab = await actor(w.db, OrgType.Lab);
    const mine = await w.partners.apply(clinic, lab.orgCode, 'We send crowns weekly');
    expect(mine).toMatchObject({ status: PartnerStatus.Applying, initiatedByMe: true });
    expect(mine.organization.code).toBe(lab.orgCode);
    const theirs = await w.partners.detail(lab, mine.partnerCode);
    expect(theirs).toMatchObject({ status: PartnerStatus.Applying, initiatedByMe: false });
    expect(theirs.events).toEqual([
      expect.objectContaining({
        action: 'apply',
        from: null,
        to: PartnerStatus.Applying,
        reason: 'We send crowns weekly',
      }),
    ]);
  });

  it('goes to the other type only, approved and active, and is for clinics and laboratories', async () => {
    const otherClinic = await actor(w.db, OrgType.Clinic);
    await refused(w.partners.apply(clinic, otherClinic.orgCode), 'PARTNER_INVALID_TARGET');
    const pendingLab = await actor(w.db, OrgType.Lab, { reviewStatus: ReviewStatus.Pending });
    await refused(w.partners.apply(clinic, pendingLab.orgCode), 'NOT_FOUND');
    await refused(w.partners.apply(clinic, 'org_unknown'), 'NOT_FOUND');
    // Which member may manage partners is the calls' permission (partner:edit), checked before the service.
    const lab = await actor(w.db, OrgType.Lab);
    const dealer = await actor(w.db, OrgType.Dealer);
    await refused(w.partners.apply(dealer, lab.orgCode), 'PARTNER_NO_ACCESS');
  });

  it('is refused while the pair has an application or a partnership, and allowed again once it ended', async () => {
    const { lab, code } = await partnershipIn(PartnerStatus.Applying);
    await refused(w.partners.apply(clinic, lab.orgCode), 'PARTNER_TRANSITION');
    // The laboratory applying back to the clinic is the same pair.
    await refused(w.partners.apply(lab, clinic.orgCode), 'PARTNER_TRANSITION');
    await w.partners.act(lab, code, 'accept');
    await refused(w.partners.apply(clinic, lab.orgCode), 'PARTNER_TRANSITION');
    await w.partners.act(clinic, code, 'terminate');
    const again = await w.partners.apply(lab, clinic.orgCode);
    expect(again).toMatchObject({ partnerCode: code, status: PartnerStatus.Applying, initiatedByMe: true });
    // The laboratory started this application: now the clinic is the one to answer it.
    await refused(w.partners.act(lab, code, 'accept'), 'PARTNER_TRANSITION');
    expect((await w.partners.act(clinic, code, 'accept')).status).toBe(PartnerStatus.Accepted);
  });
});

describe('the partnership state machine', () => {
  const STATUSES: Status[] = [
    PartnerStatus.Applying,
    PartnerStatus.Accepted,
    PartnerStatus.Rejected,
    PartnerStatus.Canceled,
    PartnerStatus.Terminated,
  ];
  for (const status of STATUSES) {
    it(`from ${NAME[status]}: accept, reject, cancel and terminate by each side as PARTNER_TRANSITIONS says`, async () => {
      for (const action of ['accept', 'reject', 'cancel', 'terminate'] as const) {
        for (const side of ['initiator', 'responder'] as const) {
          const { lab, code } = await partnershipIn(status);
          const by = side === 'initiator' ? clinic : lab;
          const what = `${action} by the ${side} from ${NAME[status]}`;
          const before = await w.partners.detail(clinic, code);
          if (canPartner(action, status, side)) {
            const after = await w.partners.act(by, code, action, REASON);
            expect(after.status, what).toBe(PARTNER_TRANSITIONS[action].to);
            expect(after.events.at(-1), what).toMatchObject({ action, from: status, to: after.status });
          } else {
            await refused(w.partners.act(by, code, action, REASON), 'PARTNER_TRANSITION', { from: status, action });
            const after = await w.partners.detail(clinic, code);
            expect(after.status, what).toBe(status);
            expect(after.events, what).toHaveLength(before.events.length);
          }
        }
      }
    });
  }

  it('asks a reason of a rejection, and nothing changes without one', async () => {
    const { lab, code } = await partnershipIn(PartnerStatus.Applying);
    await refused(w.partners.act(lab, code, 'reject', '   '), 'PARAM_INVALID', { field: 'reason' });
    expect((await w.partners.detail(lab, code)).status).toBe(PartnerStatus.Applying);
    const rejected = await w.partners.act(lab, code, 'reject', ' Too far away ');
    expect(rejected.events.at(-1)).toMatchObject({ action: 'reject', reason: 'Too far away' });
  });

  it('is reached only by its two sides', async () => {
    const { code } = await partnershipIn(PartnerStatus.Applying);
    const stranger = await actor(w.db, OrgType.Lab);
    await refused(w.partners.act(stranger, code, 'accept'), 'NOT_FOUND');
    await refused(w.partners.detail(stranger, code), 'NOT_FOUND');
    expect((await w.partners.detail(clinic, code)).status).toBe(PartnerStatus.Applying);
  });

  it('lists each partnership under the tab of its status', async () => {
    const accepted = await partnershipIn(PartnerStatus.Accepted);
    const applying = await partnershipIn(PartnerStatus.Applying);
    const ended = await partnershipIn(PartnerStatus.Terminated);
    const tab = async (t: 'mine' | 'toConfirm' | 'history') =>
      (await w.partners.list(clinic, { tab: t, pageNum: 1, pageSize: 100 })).list.map((p) => p.partnerCode);
    expect(await tab('mine')).toContain(accepted.code);
    expect(await tab('toConfirm')).toContain(applying.code);
    expect(await tab('history')).toContain(ended.code);
    expect(await tab('mine')).not.toContain(applying.code);
    expect(await tab('history')).not.toContain(accepted.code);
  });
});
