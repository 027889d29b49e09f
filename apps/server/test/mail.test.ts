import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createHarness, createUser, login, PASSWORD, type Harness } from './harness.js';

/** A real SMTP server on loopback receives what the portal sends. */
function startSmtp() {
  const received: Array<{ to: string; raw: string }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
        callback();
      });
    },
  });
  return new Promise<{ server: SMTPServer; port: number; received: typeof received }>((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.server.address() as AddressInfo).port, received }),
    );
  });
}

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  h = await createHarness({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Portal <no-reply@portal.test>' });
});
afterAll(async () => {
  await h.close();
  await new Promise<void>((r) => smtp.server.close(() => r()));
});

describe('mail over SMTP', () => {
  it('delivers the registration mail in the recipient language with a working link', async () => {
    const res = await h.call('user/regist', {
      body: {
        orgType: 2,
        region: 'uk',
        organizationName: 'Mail Clinic',
        account: 'mailclinic',
        email: 'owner@mail-clinic.test',
        displayName: 'Owner',
        password: PASSWORD,
        confirmPassword: PASSWORD,
        language: 'de',
        agreePrivacy: true,
        agreeCookie: true,
        agreeTerms: true,
      },
    });
    expect(res.code).toBe(200);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toBe('owner@mail-clinic.test');
    const raw = smtp.received[0]!.raw.replace(/=\r?\n/g, '');
    const link = raw.match(/http:\/\/portal\.test\/email-verify\/([A-Za-z0-9_-]+)/);
    expect(link).toBeTruthy();
    const [row] = await h.db.query<{ status: string; language: string }>('SELECT status, language FROM mail_outbox');
    expect(row).toEqual({ status: 'sent', language: 'de' });
    expect((await h.call('user/email.confirm', { body: { id: link![1] } })).code).toBe(200);
  });

  it('keeps a failed delivery in the outbox for a retry', async () => {
    const broken = await createHarness({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const u = await createUser(broken.db);
      expect((await broken.call('user/forgetPass', { body: { account: u.account } })).code).toBe(200);
      const [row] = await broken.db.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM mail_outbox',
      );
      expect(row).toEqual({ status: 'failed', attempts: 1 });
    } finally {
      await broken.close();
    }
  });
});

describe('outbox and demo mailbox', () => {
  /** A browser's cookie jar, as far as the mailbox cookie goes. */
  const jar = (res: { headers: Record<string, unknown> }) => {
    const cookie = res.headers['set-cookie'];
    return (Array.isArray(cookie) ? String(cookie[0]) : typeof cookie === 'string' ? cookie : '').split(';')[0]!;
  };
  const mailbox = (app: Harness, email: string, cookie?: string) =>
    app.call(`mail/demoMailbox?email=${encodeURIComponent(email)}`, {
      method: 'GET',
      headers: cookie ? { cookie } : {},
    });

  it("never shows a real account's mail to a browser that did not register it", async () => {
    const demo = await createHarness({ SEED_DEMO: 'true' });
    try {
      // Someone else's account: its reset link must not be readable by whoever asks for it.
      const victim = await createUser(demo.db);
      expect((await demo.call('user/forgetPass', { body: { account: victim.account } })).code).toBe(200);
      expect((await mailbox(demo, victim.email)).data.list).toEqual([]);
      expect((await mailbox(demo, victim.email, 'portal_demo_mailbox=forged.cookie')).data.list).toEqual([]);

      // A newcomer registers in this browser: that address's mail is readable here, and only here.
      const form = {
        orgType: 'clinic',
        region: 'eu',
        organizationName: 'Newcomer Dental',
        account: 'newcomer1',
        email: 'newcomer1@example.test',
        displayName: 'Dr New',
        password: PASSWORD,
        confirmPassword: PASSWORD,
        language: 'en',
        agreePrivacy: true,
        agreeCookie: true,
        agreeTerms: true,
      };
      const registered = await demo.call('user/regist', { body: form });
      expect(registered.code).toBe(200);
      const cookie = jar(registered);
      expect(String(registered.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
      expect((await mailbox(demo, form.email, cookie)).data.list[0].text).toContain('/email-verify/');
      expect((await mailbox(demo, form.email)).data.list).toEqual([]);
      // The cookie earns nothing for other addresses.
      expect((await mailbox(demo, victim.email, cookie)).data.list).toEqual([]);

      // The demo accounts' mail is there for anyone trying the portal.
      const demoClinic = await createUser(demo.db, { account: 'clinic', email: 'clinic@demo.dental-portal.test' });
      await demo.call('user/forgetPass', { body: { account: demoClinic.account } });
      expect((await mailbox(demo, demoClinic.email)).data.list[0].text).toContain('/forget-pass/');

      // An invitation is readable by the browser that sent it, and nothing else mailed to that address later.
      const clinicToken = (await login(demo, demoClinic.account)).accessToken;
      const invited = await demo.call('partner/inviteLab', {
        token: clinicToken,
        body: { email: 'future-lab@example.test' },
      });
      expect(invited.code).toBe(200);
      const inviter = jar(invited);
      expect((await mailbox(demo, 'future-lab@example.test', inviter)).data.list[0].text).toContain('invitation=');
      expect((await mailbox(demo, 'future-lab@example.test')).data.list).toEqual([]);
      const lab = await createUser(demo.db, { orgType: 3, email: 'future-lab@example.test' });
      await demo.call('user/forgetPass', { body: { account: lab.account } });
      expect((await mailbox(demo, 'future-lab@example.test', inviter)).data.list).toHaveLength(1);

      // The super administrator reads the whole outbox.
      const admin = await createUser(demo.db, { orgType: 1 });
      const t = await login(demo, admin.account);
      expect((await demo.call('mail/listOutbox', { token: t.accessToken, body: {} })).data.total).toBe(5);
    } finally {
      await demo.close();
    }
    const prod = await h.call('mail/demoMailbox?email=a%40b.c', { method: 'GET' });
    expect(prod.code).toBe(404);
  });
});
