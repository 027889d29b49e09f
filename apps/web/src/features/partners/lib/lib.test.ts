// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { PartnerStatus } from '@portal/contracts';
import {
  canManagePartners,
  colorGroupOf,
  invitationFailure,
  isNoAccessError,
  rowActions,
  tagColorOf,
} from './partnerRules';
import {
  forgetInvitation,
  INVITATION_STORAGE_KEY,
  invitationPath,
  pendingInvitationRedirect,
  rememberInvitation,
  storedInvitation,
  tokenFromSearch,
} from './invitation';

const org = (code: string | null = 'o1') => ({ code, name: 'Lab', type: 3, city: null, country: null });
const row = (status: number, initiatedByMe: boolean, code: string | null = 'o1') => ({
  status,
  initiatedByMe,
  organization: org(code),
});

describe('status colour groups', () => {
  it('maps every status to its §4 group', () => {
    expect(colorGroupOf(PartnerStatus.Temporary)).toBe('temp');
    expect(colorGroupOf(PartnerStatus.Applying)).toBe('applying');
    expect(colorGroupOf(PartnerStatus.Accepted)).toBe('accepted');
    expect(colorGroupOf(PartnerStatus.Rejected)).toBe('canceledAndRejected');
    expect(colorGroupOf(PartnerStatus.Canceled)).toBe('canceledAndRejected');
    expect(colorGroupOf(PartnerStatus.Terminated)).toBe('canceledAndRejected');
    expect(colorGroupOf(99)).toBeNull();
  });
  it('gives one tag colour per group', () => {
    expect(tagColorOf(PartnerStatus.Accepted)).toBe('success');
    expect(tagColorOf(PartnerStatus.Rejected)).toBe(tagColorOf(PartnerStatus.Terminated));
    expect(tagColorOf(99)).toBe('default');
  });
});

describe('row actions', () => {
  it('applying: the responder accepts or rejects, the initiator cancels', () => {
    expect(rowActions(row(PartnerStatus.Applying, false))).toEqual(['accept', 'reject']);
    expect(rowActions(row(PartnerStatus.Applying, true))).toEqual(['cancel']);
  });
  it('temporary invitation: only its initiator cancels', () => {
    expect(rowActions(row(PartnerStatus.Temporary, true, null))).toEqual(['cancel']);
    expect(rowActions(row(PartnerStatus.Temporary, false, null))).toEqual([]);
  });
  it('accepted: either side terminates', () => {
    expect(rowActions(row(PartnerStatus.Accepted, true))).toEqual(['terminate']);
    expect(rowActions(row(PartnerStatus.Accepted, false))).toEqual(['terminate']);
  });
  it('history rows apply again when the other organization is known', () => {
    for (const s of [PartnerStatus.Rejected, PartnerStatus.Canceled, PartnerStatus.Terminated]) {
      expect(rowActions(row(s, true))).toEqual(['reapply']);
      expect(rowActions(row(s, false))).toEqual(['reapply']);
    }
    expect(rowActions(row(PartnerStatus.Canceled, true, null))).toEqual([]);
    expect(rowActions(row(42, true))).toEqual([]);
  });
});

describe('access and errors', () => {
  it('only clinics and laboratories manage partners', () => {
    expect(canManagePartners(2)).toBe(true);
    expect(canManagePartners(3)).toBe(true);
    for (const t of [0, 1, 4, 5, undefined, null]) expect(canManagePartners(t)).toBe(false);
  });
  it('classifies the server codes', () => {
    expect(isNoAccessError({ code: 2031 })).toBe(true);
    expect(isNoAccessError(null)).toBe(false);
    expect(invitationFailure({ code: 2034 })).toBe('expired');
    expect(invitationFailure({ code: 2021 })).toBe('invalid');
    expect(invitationFailure({ code: 2031 })).toBe('noAccess');
    expect(invitationFailure({ code: 2032 })).toBe('other');
    expect(invitationFailure(new Error('x'))).toBe('other');
  });
});

describe('invitation token', () => {
  afterEach(() => localStorage.clear());
  it('reads ?token= before ?invitation=', () => {
    expect(tokenFromSearch('?token=a&invitation=b')).toBe('a');
    expect(tokenFromSearch('?invitation=b')).toBe('b');
    expect(tokenFromSearch('?token=%20')).toBeNull();
    expect(tokenFromSearch('')).toBeNull();
  });
  it('keeps the token in localStorage (through sign-in) until confirmed', () => {
    rememberInvitation(null);
    expect(storedInvitation()).toBeNull();
    rememberInvitation('t 1');
    expect(localStorage.getItem(INVITATION_STORAGE_KEY)).toBe('t 1');
    expect(pendingInvitationRedirect(2)).toBeNull();
    expect(storedInvitation()).toBe('t 1');
    expect(pendingInvitationRedirect(3)).toBe(invitationPath('t 1'));
    expect(invitationPath('t 1')).toBe('/partner-list-from-email?token=t%201');
    // Reading does not consume it: a second render goes to the same place.
    expect(pendingInvitationRedirect(3)).toBe(invitationPath('t 1'));
    rememberInvitation('t2');
    forgetInvitation();
    expect(storedInvitation()).toBeNull();
  });
});
