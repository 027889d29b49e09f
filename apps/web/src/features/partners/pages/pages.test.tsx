// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueryClient } from '@tanstack/react-query';
import type { AppConfig } from '@portal/contracts';
import type { Partner, PartnerDetail, PartnerTab } from '../api/types';
import { partnerKeys } from '../api/keys';
import '../../../test/dom-shims';
import { mockServer, pending } from '../../../test/http-mock';
import { cleanup, renderScreen, unmount } from '../../../test/render';
import { $, click, flush, type } from '../../../test/dom';
import { signInAs } from '../../../test/session';

/** What the administrator roles hold on My Partner / Customer. */
const MANAGER = ['partner:view', 'partner:edit'];

// The server: each test decides what a path answers; unanswered calls stay pending.
vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
const server = mockServer();
const { calls } = server;

const org = (name: string, code: string | null = `org-${name}`) => ({
  code,
  name,
  type: 3,
  city: 'Lyon',
  country: 'FR',
});
const partner = (p: Partial<Partner> & { partnerCode: string }): Partner => ({
  status: 1,
  organization: org('Alpha Lab'),
  initiatedByMe: true,
  invitedEmail: null,
  createdAt: '2025-05-01T10:00:00Z',
  updatedAt: '2025-05-02T10:00:00Z',
  ...p,
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});

async function render(
  path: string,
  routePath: string,
  load: () => Promise<{ default: React.ComponentType }>,
  seed?: (qc: QueryClient) => void,
) {
  const { default: Page } = await load();
  const { host, router } = await renderScreen(path, routePath, <Page />, { fresh: true, seed });
  return { el: host, router };
}

const listKey = (tab: PartnerTab) => partnerKeys.list({ tab, pageNum: 1, pageSize: 20 });
const load = () => import('./PartnerListPage');

describe('partner list', () => {
  it('clinic, My Partner: rows, tabs, add and invite buttons, terminate on an accepted row', async () => {
    signInAs(2, MANAGER);
    await render('/partner-management', '/partner-management', load, (qc) =>
      qc.setQueryData(listKey('mine'), { total: 1, list: [partner({ partnerCode: 'P1' })] }),
    );
    for (const tab of ['mine', 'toConfirm', 'history']) expect($(`partner-tab-${tab}`)).not.toBeNull();
    expect($('partner-row-P1')?.textContent).toContain('Alpha Lab');
    expect($('partner-row-P1')?.textContent).toContain('Lyon, FR');
    expect($('partner-row-P1')?.querySelector('[data-testid="partner-status"]')?.getAttribute('data-group')).toBe(
      'accepted',
    );
    expect($('partner-row-P1')?.querySelector('[data-testid="partner-terminate"]')).not.toBeNull();
    expect($('partner-row-P1')?.querySelector('[data-testid="partner-accept"]')).toBeNull();
    expect($('partner-add')?.textContent).toBe('add.lab');
    expect($('partner-invite')).not.toBeNull();
    expect($('partner-tab-mine')?.textContent).toBe('tabs.mine');
    expect($('partner-list')?.querySelector('.ant-card-head-title')?.textContent).toBe('title');
  });

  it('a role that only views partners gets the rows and the detail, no add, invite or move', async () => {
    signInAs(2, ['partner:view']);
    await render('/partner-management', '/partner-management', load, (qc) =>
      qc.setQueryData(listKey('mine'), { total: 1, list: [partner({ partnerCode: 'P1' })] }),
    );
    expect($('partner-row-P1')?.textContent).toContain('Alpha Lab');
    expect($('partner-row-P1')?.querySelector('[data-testid="partner-view"]')).not.toBeNull();
    expect($('partner-row-P1')?.querySelector('[data-testid="partner-terminate"]')).toBeNull();
    expect($('partner-add')).toBeNull();
    expect($('partner-invite')).toBeNull();
    expect(document.querySelector('[data-permission="partner:edit"]')).toBeNull();
  });

  it('a laboratory lists its customers under their own heading', async () => {
    signInAs(3, MANAGER);
    await render('/partner-management', '/partner-management', load, (qc) =>
      qc.setQueryData(listKey('mine'), { total: 0, list: [] }),
    );
    expect($('partner-tab-mine')?.textContent).toBe('tabs.mineLab');
    expect($('partner-list')?.querySelector('.ant-card-head-title')?.textContent).toBe('titleLab');
    expect($('partner-add')?.textContent).toBe('add.clinic');
  });

  it('To be Confirmed: the responder accepts or rejects (reason required), the initiator cancels', async () => {
    signInAs(3, MANAGER);
    const rows = [
      partner({
        partnerCode: 'IN',
        status: 0,
        initiatedByMe: false,
        organization: { ...org('Smile Clinic'), type: 2 },
      }),
      partner({ partnerCode: 'OUT', status: 0, initiatedByMe: true }),
    ];
    await render('/partner-management?tab=toConfirm', '/partner-management', load, (qc) =>
      qc.setQueryData(listKey('toConfirm'), { total: 2, list: rows }),
    );
    const inRow = $('partner-row-IN')!;
    expect(inRow.querySelector('[data-testid="partner-accept"]')).not.toBeNull();
    expect(inRow.querySelector('[data-testid="partner-cancel"]')).toBeNull();
    expect($('partner-row-OUT')!.querySelector('[data-testid="partner-cancel"]')).not.toBeNull();
    expect($('partner-row-OUT')!.querySelector('[data-testid="partner-accept"]')).toBeNull();
    // A laboratory associates clinics and has no email invitation.
    expect($('partner-add')?.textContent).toBe('add.clinic');
    expect($('partner-invite')).toBeNull();

    server.answer = (path) => (path === 'partner/reject' ? Promise.resolve(rows[0]) : pending());
    await click(inRow.querySelector('[data-testid="partner-reject"]'));
    await click($('partner-reject-confirm'));
    await flush(1, 50);
    expect(calls.some((c) => c.path === 'partner/reject')).toBe(false);
    await type($('partner-reject-reason'), 'Not our field');
    await click($('partner-reject-confirm'));
    await flush(1, 50);
    expect(calls.find((c) => c.path === 'partner/reject')?.body).toEqual({
      partnerCode: 'IN',
      reason: 'Not our field',
    });
  });

  it('History: apply again uses the other organization', async () => {
    signInAs(2, MANAGER);
    await render('/partner-management?tab=history', '/partner-management', load, (qc) =>
      qc.setQueryData(listKey('history'), { total: 1, list: [partner({ partnerCode: 'H1', status: 4 })] }),
    );
    await click($('partner-row-H1')!.querySelector('[data-testid="partner-reapply"]'));
    expect(calls.find((c) => c.path === 'partner/apply')?.body).toEqual({ organizationCode: 'org-Alpha Lab' });
  });

  it('dealers and a 2031 answer see the no-access content', async () => {
    signInAs(4);
    await render('/partner-management', '/partner-management', load);
    expect($('partner-no-access')).not.toBeNull();
    expect(calls).toHaveLength(0);
    unmount();
    signInAs(2, MANAGER);
    server.answer = () => Promise.reject(Object.assign(new Error('no'), { code: 2031, msg: 'no' }));
    await render('/partner-management', '/partner-management', load);
    await flush();
    expect($('partner-no-access')).not.toBeNull();
  });

  it('detail drawer with the timeline', async () => {
    signInAs(2, MANAGER);
    const detail: PartnerDetail = {
      ...partner({ partnerCode: 'P1' }),
      events: [
        {
          from: null,
          to: 0,
          action: 'apply',
          reason: null,
          actorName: 'Ann',
          actorOrganization: 'Me',
          at: '2025-05-01T10:00:00Z',
        },
        {
          from: 0,
          to: 1,
          action: 'accept',
          reason: 'welcome',
          actorName: 'Bob',
          actorOrganization: 'Alpha Lab',
          at: '2025-05-02T10:00:00Z',
        },
      ],
    };
    await render('/partner-management', '/partner-management', load, (qc) => {
      qc.setQueryData(listKey('mine'), { total: 1, list: [detail] });
      qc.setQueryData(partnerKeys.detail('P1'), detail);
    });
    await click($('partner-row-P1')!.querySelector('[data-testid="partner-view"]'));
    expect($('partner-detail')?.getAttribute('data-code')).toBe('P1');
    const events = document.querySelectorAll('[data-testid="partner-timeline"] [data-testid="partner-event"]');
    expect([...events].map((e) => e.getAttribute('data-action'))).toEqual(['apply', 'accept']);
    expect($('partner-event-reason')?.textContent).toContain('detail.reason');
  });

  it('add dialog: invitation code, then apply', async () => {
    signInAs(2, MANAGER);
    const target = { organizationCode: 'LAB9', name: 'Nine Lab', type: 3, city: null, country: 'DE' };
    server.answer = (path) =>
      path === 'user/partner/checkInvitationCode'
        ? Promise.resolve(target)
        : path === 'partner/apply'
          ? Promise.resolve({})
          : pending();
    await render('/partner-management', '/partner-management', load, (qc) =>
      qc.setQueryData(listKey('mine'), { total: 0, list: [] }),
    );
    await click($('partner-add'));
    await type($('partner-add-code'), 'ABC123');
    await click($('partner-add-check'));
    expect(calls.find((c) => c.path === 'user/partner/checkInvitationCode')?.body).toEqual({
      invitationCode: 'ABC123',
    });
    expect($('partner-add-result-LAB9')?.textContent).toContain('Nine Lab');
    await click($('partner-add-apply'));
    expect(calls.find((c) => c.path === 'partner/apply')?.body).toEqual({ organizationCode: 'LAB9' });
  });

  it('add dialog: a code that leads to nobody (410) is told under the field', async () => {
    signInAs(2, MANAGER);
    const { ApiError } = await import('../../../lib/http');
    server.answer = (path) =>
      path === 'user/partner/checkInvitationCode'
        ? Promise.reject(Object.assign(new ApiError(410, 'gone'), { code: 410 }))
        : pending();
    await render('/partner-management', '/partner-management', load, (qc) =>
      qc.setQueryData(listKey('mine'), { total: 0, list: [] }),
    );
    await click($('partner-add'));
    expect($('partner-add-unknown')).toBeNull();
    await type($('partner-add-code'), 'NOPE');
    await click($('partner-add-check'));
    expect($('partner-add-unknown')).not.toBeNull();
    expect($('partner-add-found')).toBeNull();
  });
});

describe('invitation from email', () => {
  const page = () => import('./PartnerInvitationPage');
  beforeEach(async () => {
    const { appConfigStore } = await import('../../../lib/appConfig');
    appConfigStore.set({ appName: 'Portal', copyright: '' } as unknown as AppConfig);
  });
  it('without a token: the missing message', async () => {
    await render('/partner-list-from-email', '/partner-list-from-email', page);
    expect($('partner-invitation-missing')).not.toBeNull();
  });

  it('confirms with the stored token and shows the clinic', async () => {
    const { rememberInvitation, storedInvitation } = await import('../lib/invitation');
    rememberInvitation('tok-1');
    server.answer = () =>
      Promise.resolve({
        ...partner({ partnerCode: 'P9', organization: { ...org('Smile Clinic'), type: 2 } }),
        events: [],
      });
    await render('/partner-list-from-email', '/partner-list-from-email', page);
    await click($('partner-confirm-invitation'));
    expect(calls[0]).toEqual({ path: 'partner/confirmInvitation', body: { token: 'tok-1' } });
    expect($('partner-invitation-confirmed')).not.toBeNull();
    expect(storedInvitation()).toBeNull();
  });

  it('forgets the stored token once it is in the address, so / does not send the user back', async () => {
    const { rememberInvitation, storedInvitation, pendingInvitationRedirect } = await import('../lib/invitation');
    rememberInvitation('tok-2');
    expect(pendingInvitationRedirect(3)).toBe('/partner-list-from-email?token=tok-2');
    await render('/partner-list-from-email?token=tok-2', '/partner-list-from-email', page);
    expect($('partner-confirm-invitation')).not.toBeNull();
    expect(storedInvitation()).toBeNull();
    expect(pendingInvitationRedirect(3)).toBeNull();
  });

  it('expired (2034) and invalid (2021) links', async () => {
    server.answer = () => Promise.reject(Object.assign(new Error('x'), { code: 2034, msg: 'x' }));
    await render('/partner-list-from-email?token=old', '/partner-list-from-email', page);
    await click($('partner-confirm-invitation'));
    expect(calls[0]?.body).toEqual({ token: 'old' });
    expect($('partner-invitation-expired')).not.toBeNull();
    unmount();
    server.answer = () => Promise.reject(Object.assign(new Error('x'), { code: 2021, msg: 'x' }));
    await render('/partner-list-from-email?invitation=bad', '/partner-list-from-email', page);
    await click($('partner-confirm-invitation'));
    expect($('partner-invitation-invalid')).not.toBeNull();
  });

  it('/register?invitation= keeps the token for after sign-in', async () => {
    const { INVITATION_STORAGE_KEY } = await import('../lib/invitation');
    const { sessionStore } = await import('../../../lib/session');
    sessionStore.set((s) => ({ ...s, signedIn: false }));
    await render('/register?invitation=abc', '/register', () => import('./RegisterWithInvitationPage'));
    expect(localStorage.getItem(INVITATION_STORAGE_KEY)).toBe('abc');
    expect($('register-way-lab')).not.toBeNull();
  });
});
