import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, linkFromOutbox, mailBatchesSettled, snapshot, type Harness } from './harness.js';
import { count, newCase, orderAction, partner, sendToLab, side, type Side } from './fixtures.js';

let h: Harness;
let clinic: Side;
let lab: Side;
let stranger: Side;
let partnerCode: string;

beforeAll(async () => {
  h = await createHarness();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab, 'de');
  stranger = await side(h, OrgType.Lab);
  partnerCode = await partner(h, clinic, lab);
});
afterAll(() => h.close());

const add = (s: Side, userName: string, email: string) =>
  h.call('companyContact/add', { token: s.token, body: { userName, email } });

/** Order mails are sent after the change commits; wait until `to` has `expected` of them. */
async function mailsTo(to: string, expected: number) {
  for (let i = 0; i < 60; i++) {
    const rows = await h.db.query<{ subject: string; body_text: string; language: string }>(
      `SELECT subject, body_text, language FROM mail_outbox WHERE to_address = $1 ORDER BY id`,
      [to],
    );
    if (rows.length >= expected) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  return h.db.query<{ subject: string; body_text: string; language: string }>(
    `SELECT subject, body_text, language FROM mail_outbox WHERE to_address = $1 ORDER BY id`,
    [to],
  );
}

describe('contacts', () => {
  it('adds a contact with a 7-day link in the organization’s language and lists it as pending', async () => {
    const made = await add(lab, 'Front desk', 'desk@lab-contacts.test');
    expect(made.data).toMatchObject({ userName: 'Front desk', email: 'desk@lab-contacts.test', status: 'pending' });
    const days = (Date.parse(made.data.linkExpiresAt) - Date.parse(made.data.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);
    const [mail] = await mailsTo('desk@lab-contacts.test', 1);
    expect(mail!.language).toBe('de');
    expect(mail!.body_text).toContain('/contact-email-verify/');
    const list = await h.call('companyContact/list', { token: lab.token });
    expect(list.data.list.map((c: { email: string }) => c.email)).toEqual(['desk@lab-contacts.test']);
    expect((await h.call('companyContact/list', { token: clinic.token })).data.list).toEqual([]);
  });

  it('refuses bad input naming the field, and a second contact with the same address, changing nothing', async () => {
    await add(clinic, 'Billing', 'billing@clinic-contacts.test');
    const before = await snapshot(h.db);
    const contactsBefore = await count(h, 'company_contacts');
    for (const [body, field] of [
      [{ email: 'x@example.test' }, 'userName'],
      [{ userName: '  ', email: 'x@example.test' }, 'userName'],
      [{ userName: 'Name' }, 'email'],
      [{ userName: 'Name', email: 'not an address' }, 'email'],
      [{ userName: 'x'.repeat(101), email: 'x@example.test' }, 'userName'],
    ] as const) {
      const res = await h.call('companyContact/add', { token: clinic.token, body });
      expect([res.status, res.data.field]).toEqual([400, field]);
    }
    const twice = await add(clinic, 'Billing again', 'BILLING@clinic-contacts.test');
    expect([twice.code, twice.data.field]).toEqual([2071, 'email']);
    expect(await snapshot(h.db)).toBe(before);
    expect(await count(h, 'company_contacts')).toBe(contactsBefore);
  });

  it('answers 404 for another organization’s contact and changes nothing', async () => {
    const made = await add(lab, 'Courier', 'courier@lab-contacts.test');
    const contactsBefore = await h.db.query('SELECT * FROM company_contacts ORDER BY id');
    for (const path of ['companyContact/resendVerifyEmail', 'companyContact/delete']) {
      const res = await h.call(path, { token: stranger.token, body: { contactCode: made.data.contactCode } });
      expect(res.code).toBe(404);
    }
    expect(await h.db.query('SELECT * FROM company_contacts ORDER BY id')).toEqual(contactsBefore);
    expect(await count(h, 'mail_outbox WHERE to_address = $1', ['courier@lab-contacts.test'])).toBe(1);
  });

  it('verifies from the mailed link; an expired link is refused until a new one is sent', async () => {
    await add(clinic, 'Reception', 'reception@clinic-contacts.test');
    const first = await linkFromOutbox(h.db, 'reception@clinic-contacts.test', '/contact-email-verify/');
    await h.db.query(`UPDATE company_contacts SET verify_expires_at = now() - interval '1 second' WHERE email = $1`, [
      'reception@clinic-contacts.test',
    ]);
    expect((await h.call('companyContact/contactEmailVerify', { body: { verifyCode: first } })).code).toBe(2020);
    const listed = await h.call('companyContact/list', { token: clinic.token });
    const contact = listed.data.list.find((c: { email: string }) => c.email === 'reception@clinic-contacts.test');
    expect(contact.status).toBe('expired');

    const resent = await h.call('companyContact/resendVerifyEmail', {
      token: clinic.token,
      body: { contactCode: contact.contactCode },
    });
    expect(resent.data.status).toBe('pending');
    // The old link stops working; the new one verifies (and answers the same when opened again).
    expect((await h.call('companyContact/contactEmailVerify', { body: { verifyCode: first } })).code).toBe(2021);
    const second = await linkFromOutbox(h.db, 'reception@clinic-contacts.test', '/contact-email-verify/');
    const verified = await h.call('companyContact/contactEmailVerify', { body: { verifyCode: second } });
    expect(verified.data).toEqual({ organizationName: expect.any(String), email: 'reception@clinic-contacts.test' });
    expect((await h.call('companyContact/contactEmailVerify', { body: { verifyCode: second } })).code).toBe(200);
    const again = await h.call('companyContact/resendVerifyEmail', {
      token: clinic.token,
      body: { contactCode: contact.contactCode },
    });
    expect(again.code).toBe(2072);
    expect((await h.call('companyContact/contactEmailVerify', { body: { verifyCode: 'nonsense' } })).code).toBe(2021);
  });

  it('mails order events to verified contacts only, and no more once deleted', async () => {
    await add(lab, 'Production', 'production@lab-contacts.test');
    await add(lab, 'Unconfirmed', 'unconfirmed@lab-contacts.test');
    const code = await linkFromOutbox(h.db, 'production@lab-contacts.test', '/contact-email-verify/');
    await h.call('companyContact/contactEmailVerify', { body: { verifyCode: code } });

    const [orderCode] = await sendToLab(h, clinic, partnerCode, [await newCase(h, clinic, 'Bridge', 'Ida Moe')]);
    const mails = await mailsTo('production@lab-contacts.test', 2);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.body_text).toContain(orderCode);
    expect(mails[1]!.language).toBe('de');
    // The laboratory's contact does not read the patient's name the clinic did not share.
    expect(mails[1]!.body_text).not.toContain('Ida Moe');
    expect(mails[1]!.body_text).toContain('Kontakt');
    expect(await count(h, 'mail_outbox WHERE to_address = $1', ['unconfirmed@lab-contacts.test'])).toBe(1);
    expect(await count(h, 'contact_order_notices')).toBe(0);

    const listed = await h.call('companyContact/list', { token: lab.token });
    const production = listed.data.list.find((c: { email: string }) => c.email === 'production@lab-contacts.test');
    expect(production.status).toBe('verified');
    expect(
      (await h.call('companyContact/delete', { token: lab.token, body: { contactCode: production.contactCode } })).code,
    ).toBe(200);
    await orderAction(h, lab, [orderCode!], 'accept');
    await mailBatchesSettled(h.db);
    expect(await count(h, 'mail_outbox WHERE to_address = $1', ['production@lab-contacts.test'])).toBe(2);
  });

  it('sends a text message to users who chose SMS, through the outbox', async () => {
    await h.call('user/edit', { token: clinic.token, body: { displayName: 'Clinic admin', phone: '+1 415 555 0300' } });
    await h.call('user/update', { token: clinic.token, body: { msgReceiveType: 'sms' } });
    const [orderCode] = await sendToLab(h, clinic, partnerCode, [await newCase(h, clinic)]);
    await orderAction(h, lab, [orderCode!], 'accept');
    const [sms] = await h.db.query<{ subject: string; body_text: string }>(
      `SELECT subject, body_text FROM mail_outbox WHERE to_address = 'sms:+1 415 555 0300'`,
    );
    expect(sms!.subject).toBe('SMS');
    expect(sms!.body_text).toContain(orderCode);
  });
});
