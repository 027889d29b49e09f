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
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.server.address() as AddressInfo).port, received }));
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
        orgType: 2, region: 'uk', organizationName: 'Mail Clinic', account: 'mailclinic', email: 'owner@mail-clinic.test', displayName: 'Owner',
        password: PASSWORD, confirmPassword: PASSWORD, language: 'de', agreePrivacy: true, agreeCookie: true, agreeTerms: true,
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
      const [row] = await broken.db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM mail_outbox');
      expect(row).toEqual({ status: 'failed', attempts: 1 });
    } finally {
      await broken.close();
    }
  });
});

describe('outbox and demo mailbox', () => {
  it('shows the outbox to the super administrator and the demo mailbox only in demo mode', async () => {
    const demo = await createHarness({ SEED_DEMO: 'true' });
    try {
      const u = await createUser(demo.db);
      await demo.call('user/forgetPass', { body: { account: u.account } });
      const box = await demo.call(`mail/demoMailbox?email=${encodeURIComponent(u.email)}`, { method: 'GET' });
      expect(box.data.list[0].text).toContain('/forget-pass/');
      const admin = await createUser(demo.db, { orgType: 1 });
      const t = await login(demo, admin.account);
      expect((await demo.call('mail/listOutbox', { token: t.accessToken, body: {} })).data.total).toBe(1);
    } finally {
      await demo.close();
    }
    const prod = await h.call('mail/demoMailbox?email=a%40b.c', { method: 'GET' });
    expect(prod.code).toBe(404);
  });
});
