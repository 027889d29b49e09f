// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompanyContact } from '@portal/contracts';
import '../../../test/dom-shims';
import { mockServer } from '../../../test/http-mock';
import { cleanup, renderWithQuery } from '../../../test/render';
import { $, click, flush, waitFor } from '../../../test/dom';
import { signInAs } from '../../../test/session';
import { sessionStore } from '../../../lib/session';
import { accountKeys } from '../api/keys';

vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));
const server = mockServer(async () => null);

afterEach(() => {
  cleanup();
  localStorage.clear();
});

const contact = (c: Partial<CompanyContact> & { email: string }): CompanyContact => ({
  contactCode: `ct-${c.email}`,
  userName: 'Desk',
  status: 'pending',
  createdAt: '2026-05-01T10:00:00Z',
  verifiedAt: null,
  linkExpiresAt: '2026-05-08T10:00:00Z',
  ...c,
});

describe('receive email tab', () => {
  it('offers text messages only with a phone number', async () => {
    signInAs(2, [], { msgReceiveType: 'station', receiveEmail: true, phone: null });
    const { default: ReceiveEmailPanel } = await import('./ReceiveEmailPanel');
    await renderWithQuery(<ReceiveEmailPanel />);
    const sms = $('own-receive-sms')!.closest('label')!.querySelector('input')!;
    expect(sms.disabled).toBe(true);
    expect($('own-receive')!.textContent).toContain('receive.needsPhone');
  });

  it('switches to text messages through user/update and keeps the choice in the session', async () => {
    signInAs(2, [], { msgReceiveType: 'station', receiveEmail: true, phone: '+1 415 555 0100' });
    const { default: ReceiveEmailPanel } = await import('./ReceiveEmailPanel');
    await renderWithQuery(<ReceiveEmailPanel />);
    await click($('own-receive-sms'));
    await waitFor(() => sessionStore.get().user?.msgReceiveType === 'sms');
    expect(server.lastCall('user/update')).toEqual({ msgReceiveType: 'sms' });
  });
});

describe('contacts tab', () => {
  it('shows each contact’s status and resends the link of one not yet verified', async () => {
    signInAs(2, ['order:view', 'contact:manage']);
    const { default: ContactsPanel } = await import('./ContactsPanel');
    await renderWithQuery(<ContactsPanel />, {
      fresh: true,
      seed: (qc) =>
        qc.setQueryData(accountKeys.contacts, {
          list: [
            contact({ email: 'desk@clinic.test', status: 'expired' }),
            contact({ email: 'boss@clinic.test', status: 'verified', verifiedAt: '2026-05-02T10:00:00Z' }),
          ],
        }),
    });
    expect($('contact-status-desk@clinic.test')!.textContent).toBe('contacts.statuses.expired');
    expect($('contact-status-boss@clinic.test')!.textContent).toBe('contacts.statuses.verified');
    // A verified contact has nothing to resend.
    expect($('contact-resend-boss@clinic.test')).toBeNull();
    server.answer = async () => contact({ email: 'desk@clinic.test' });
    await click($('contact-resend-desk@clinic.test'));
    await flush(3);
    expect(server.lastCall('companyContact/resendVerifyEmail')).toEqual({ contactCode: 'ct-desk@clinic.test' });
  });

  it('offers no add, resend or delete to a role without contact:manage', async () => {
    signInAs(2, ['order:view']);
    const { default: ContactsPanel } = await import('./ContactsPanel');
    await renderWithQuery(<ContactsPanel />, {
      fresh: true,
      seed: (qc) =>
        qc.setQueryData(accountKeys.contacts, { list: [contact({ email: 'desk@clinic.test', status: 'expired' })] }),
    });
    expect($('contact-status-desk@clinic.test')!.textContent).toBe('contacts.statuses.expired');
    expect($('contact-add')).toBeNull();
    expect($('contact-resend-desk@clinic.test')).toBeNull();
    expect($('contact-delete-desk@clinic.test')).toBeNull();
  });
});
