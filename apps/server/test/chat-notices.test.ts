import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as smpp from 'smpp';
import { OrgType } from '@portal/contracts';
import { ChatNotices } from '../src/modules/chat/chat-notices.js';
import { OutboxSmsSender, SmppDelivery } from '../src/platform/sms.js';
import { createHarness, type Harness } from './harness.js';
import { partner, side, type Side } from './fixtures.js';
import { LiveClient } from './live-client.js';

/**
 * Notices of unread chat messages (docs/product-decisions.md, "Chat"): after the quiet period, once per
 * conversation, by the reader's receiving type, never while they are online; text messages go out through a real
 * SMPP session to an SMPP server on loopback.
 */
let h: Harness;
let base: string;
let clinic: Side;
let lab: Side;
let conversation: string;
let seq = 0;

const QUIET_MINUTES = 15;
const notices = (now?: Date) =>
  new ChatNotices(h.db, new OutboxSmsSender(true), QUIET_MINUTES, 'Dental Portal').run(now);
const send = async (s: Side, body: string) => {
  const res = await h.call('chat/send', {
    token: s.token,
    body: { conversationCode: conversation, clientId: `notice-${(seq += 1)}`, body, refs: [], attachmentCodes: [] },
  });
  expect(res.code).toBe(200);
  return res.data as { id: number };
};
/** The conversation's messages were sent this many minutes ago (the quiet period passes without waiting for it). */
const age = (minutes: number) =>
  h.db.query(
    `UPDATE chat_messages SET created_at = now() - make_interval(mins => $2)
      WHERE conversation_id = (SELECT id FROM chat_conversations WHERE code = $1)`,
    [conversation, minutes],
  );
const letters = (userId: number) =>
  h.db.query<{ params: { organization: string; count: number } }>(
    `SELECT params FROM notifications WHERE user_id = $1 AND event = 'chat' ORDER BY id`,
    [userId],
  );
const texts = (phone: string) =>
  h.db.query<{ body_text: string; status: string }>(
    `SELECT body_text, status FROM mail_outbox WHERE to_address = $1 ORDER BY id`,
    [`sms:${phone}`],
  );
const receiveBy = (s: Side, type: 'station' | 'sms', phone: string | null = null) =>
  h.db.query('UPDATE users SET msg_receive_type = $2, phone = $3 WHERE id = $1', [s.userId, type, phone]);
const orgName = async (s: Side) =>
  (await h.db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [s.organizationId]))[0]!.name;
const readAll = async (s: Side) => {
  const page = await h.call('chat/messages', { token: s.token, body: { conversationCode: conversation } });
  const newest = Math.max(...(page.data.list as Array<{ id: number }>).map((m) => m.id));
  expect(
    (await h.call('chat/read', { token: s.token, body: { conversationCode: conversation, upTo: newest } })).code,
  ).toBe(200);
};

beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
  await partner(h, clinic, lab);
  const list = await h.call('chat/conversations', { token: clinic.token });
  conversation = (list.data.list as Array<{ code: string; kind: string }>).find((c) => c.kind === 'partner')!.code;
  await h.call('chat/conversations', { token: lab.token });
});
afterAll(async () => {
  await h.close();
});

describe('chat notices', () => {
  it('tell a station-letter reader once per conversation after the quiet period, in the bell, naming the sender', async () => {
    await receiveBy(lab, 'station');
    await send(clinic, 'Please check the margin on 16');
    await send(clinic, 'And the contact on 17');
    // Not before the quiet period.
    await age(QUIET_MINUTES - 1);
    expect(await notices()).toEqual({ letters: 0, texts: 0 });
    await age(QUIET_MINUTES + 1);
    expect(await notices()).toEqual({ letters: 1, texts: 0 });
    const sent = await letters(lab.userId);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.params).toMatchObject({ organization: await orgName(clinic), count: 2 });
    // The sender's own organization is not told of its own messages.
    expect(await letters(clinic.userId)).toHaveLength(0);
    // The live layer's event that makes the reader's bell count again, for them alone.
    const events = await h.db.query<{ organization_id: number; data: { event: string } }>(
      `SELECT organization_id, data FROM events WHERE kind = 'notification' AND user_id = $1`,
      [lab.userId],
    );
    expect(events.map((e) => [Number(e.organization_id), e.data.event])).toEqual([[lab.organizationId, 'chat']]);
    // In the bell, opening the conversation.
    const bell = await h.call('msg/listSysMsg', { token: lab.token, body: { pageNum: 1, pageSize: 10 } });
    const letter = (bell.data.list as Array<{ subject: string; code: string; title: string; msgType: number }>).find(
      (m) => m.subject === 'chat',
    )!;
    expect(letter).toMatchObject({ code: conversation, msgType: 2 });
    expect(letter.title).toBe(`Unread chat messages from ${await orgName(clinic)}`);
    // Nothing new: told once; run again, nothing.
    expect(await notices()).toEqual({ letters: 0, texts: 0 });
    // A later message starts a new quiet period: told of it once more.
    await send(clinic, 'One more thing');
    await age(QUIET_MINUTES + 1);
    expect(await notices()).toEqual({ letters: 1, texts: 0 });
  });

  it('tell nobody who read the messages, or who is online', async () => {
    await readAll(lab);
    await send(clinic, 'Read before the quiet period ends');
    await readAll(lab);
    await age(QUIET_MINUTES + 1);
    expect(await notices()).toEqual({ letters: 0, texts: 0 });

    // An open socket is online: no notice while it is; once it has been gone a while, the notice comes.
    await send(clinic, 'While the laboratory is online');
    await age(QUIET_MINUTES + 1);
    const socket = new LiveClient(base);
    await socket.auth(lab.token);
    await expect
      .poll(async () => (await h.db.query('SELECT 1 FROM live_presence WHERE user_id = $1', [lab.userId])).length)
      .toBe(1);
    expect(await notices()).toEqual({ letters: 0, texts: 0 });
    socket.close();
    // A socket on another process: its heartbeat is all this one sees, 50 s old (two beats of 25 s), still online.
    await h.db.query(`UPDATE live_presence SET seen_at = now() - interval '50 seconds' WHERE user_id = $1`, [
      lab.userId,
    ]);
    expect(await notices()).toEqual({ letters: 0, texts: 0 });
    await h.db.query(`UPDATE live_presence SET seen_at = now() - interval '5 minutes' WHERE user_id = $1`, [
      lab.userId,
    ]);
    expect(await notices()).toEqual({ letters: 1, texts: 0 });
  });

  it('two processes at once send one notice', async () => {
    await readAll(lab);
    await send(clinic, 'Raced');
    await age(QUIET_MINUTES + 1);
    const before = (await letters(lab.userId)).length;
    const [a, b] = await Promise.all([notices(), notices()]);
    expect(a.letters + b.letters).toBe(1);
    expect(await letters(lab.userId)).toHaveLength(before + 1);
  });
});

describe('text messages', () => {
  interface Received {
    to: string;
    from: string;
    text: string;
    coding: number;
    via: 'short_message' | 'message_payload';
    /** The concatenation header's [reference, total, sequence], for a part of a long text. */
    part?: [number, number, number];
  }
  let received: Received[];
  let binds: Array<{ system_id: string; password: string }>;
  let server: smpp.Server;
  let port: number;
  /** The centre refuses the next part with this sequence number of a concatenated message, once. */
  let refusePart: number | undefined;
  const centre = (password = 'secret', long: 'split' | 'payload' = 'split', p = port) =>
    new SmppDelivery(h.db, { url: `smpp://portal:${password}@127.0.0.1:${p}`, sourceAddr: 'Portal', long }, h.app.log);
  /** A text message waiting in the outbox, as the order notices and the chat notices write them. */
  const queue = (to: string, text: string) =>
    h.db.transaction((tx) => new OutboxSmsSender(true).store(tx, { to, language: 'en', text }));
  const joined = (parts: Received[]) =>
    [...parts]
      .sort((a, b) => a.part![2] - b.part![2])
      .map((r) => r.text)
      .join('');

  beforeAll(async () => {
    server = smpp.createServer((session) => {
      session.on('bind_transmitter', (pdu) => {
        binds.push({ system_id: String(pdu.system_id), password: String(pdu.password) });
        session.send(pdu.response(pdu.password === 'secret' ? {} : { command_status: smpp.ESME_RBINDFAIL }));
      });
      session.on('submit_sm', (pdu) => {
        type Decoded = { message?: string; udh?: Buffer[] } | string | undefined;
        const short = pdu.short_message as Decoded;
        const payload = pdu.message_payload as Decoded;
        const text = (v: Decoded) => (typeof v === 'string' ? v : (v?.message ?? ''));
        const udh = typeof short === 'object' ? short.udh?.find((u) => u[0] === 0x00) : undefined;
        if (udh && udh[4] === refusePart) {
          refusePart = undefined;
          session.send(pdu.response({ command_status: smpp.ESME_RSYSERR }));
          return;
        }
        received.push({
          to: String(pdu.destination_addr),
          from: String(pdu.source_addr),
          text: text(short) || text(payload),
          coding: Number(pdu.data_coding),
          via: text(short) ? 'short_message' : 'message_payload',
          ...(udh ? { part: [udh[2]!, udh[3]!, udh[4]!] as [number, number, number] } : {}),
        });
        session.send(pdu.response({ message_id: `m${received.length}` }));
      });
      session.on('unbind', (pdu) => session.send(pdu.response()));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    port = server.address().port;
  });
  beforeEach(() => {
    received = [];
    binds = [];
    refusePart = undefined;
  });
  afterEach(async () => {
    // Each test leaves nothing for the next one's deliveries.
    await h.db.query(`DELETE FROM mail_outbox WHERE to_address LIKE 'sms:%'`);
  });
  afterAll(async () => {
    await new Promise<void>((ok) => server.close(() => ok()));
  });

  it('go to an SMS reader through an SMPP session, Japanese as UCS-2, and stay for a retry while the centre is down', async () => {
    await readAll(lab);
    await receiveBy(lab, 'sms', '+49 151 2345 6789');
    await h.db.query(`UPDATE users SET language = 'ja' WHERE id = $1`, [lab.userId]);
    await send(clinic, '16番のマージンを確認してください');
    // The quiet period passes on the job's clock, not on the messages.
    const later = new Date(Date.now() + (QUIET_MINUTES + 1) * 60_000);
    expect(await notices()).toEqual({ letters: 0, texts: 0 });
    expect(await notices(later)).toEqual({ letters: 0, texts: 1 });
    const [stored] = await texts('+49 151 2345 6789');
    expect(stored!.status).toBe('pending');
    expect(stored!.body_text).toContain(await orgName(clinic));
    // The message's own text is not in the notice (it may name a patient).
    expect(stored!.body_text).not.toContain('マージン');

    // A centre that refuses the password: the message stays, to be tried again.
    expect(await centre('wrong').deliverPending()).toBe(0);
    expect((await texts('+49 151 2345 6789'))[0]!.status).toBe('failed');
    // No centre at all: the same, and no crash.
    expect(await centre('secret', 'split', 1).deliverPending()).toBe(0);
    expect((await texts('+49 151 2345 6789'))[0]!.status).toBe('failed');
    expect(received).toHaveLength(0);

    const delivery = centre();
    expect(await delivery.deliverPending()).toBe(1);
    expect(binds.at(-1)).toEqual({ system_id: 'portal', password: 'secret' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ to: '4915123456789', from: 'Portal', via: 'short_message', coding: 0x08 });
    expect(received[0]!.text).toBe(stored!.body_text);
    expect((await texts('+49 151 2345 6789'))[0]!.status).toBe('sent');
    // Sent once: nothing left to send.
    expect(await delivery.deliverPending()).toBe(0);
    expect(received).toHaveLength(1);
    await h.db.query(`UPDATE users SET language = 'en' WHERE id = $1`, [lab.userId]);
  });

  it('go in the GSM alphabet when the text fits it, the typography made plain', async () => {
    await readAll(lab);
    await receiveBy(lab, 'sms', '+1 (415) 555-0100');
    await send(clinic, 'The crown for Mr. Example is ready');
    await age(QUIET_MINUTES + 1);
    expect(await notices()).toEqual({ letters: 0, texts: 1 });
    const [stored] = await texts('+1 (415) 555-0100');
    // English's "Dental Portal – unread…" goes with a plain hyphen: one GSM message instead of a UCS-2 one.
    expect(stored!.body_text).toBe(`Dental Portal - unread chat messages from ${await orgName(clinic)}: 1`);
    expect(stored!.body_text).not.toContain('Example');
    expect(await centre().deliverPending()).toBe(1);
    expect(received).toEqual([
      { to: '14155550100', from: 'Portal', text: stored!.body_text, coding: 0x00, via: 'short_message' },
    ]);
  });

  it('fall back to a station letter for an SMS reader without a phone', async () => {
    await readAll(lab);
    await receiveBy(lab, 'sms', null);
    const before = (await letters(lab.userId)).length;
    await send(clinic, 'No phone');
    expect(await notices(new Date(Date.now() + (QUIET_MINUTES + 1) * 60_000))).toEqual({ letters: 1, texts: 0 });
    expect(await letters(lab.userId)).toHaveLength(before + 1);
    await receiveBy(lab, 'station');
  });

  it('cut a long text into concatenated parts, or send it whole in message_payload', async () => {
    const long = `Lab [A] {B} ~ ${'0123456789'.repeat(20)} €`;
    await queue('+4512345678', long);
    expect(await centre().deliverPending()).toBe(1);
    expect(received).toHaveLength(2);
    expect(received.every((r) => r.coding === 0x00 && r.via === 'short_message' && r.to === '4512345678')).toBe(true);
    expect(received.map((r) => r.part!.slice(1))).toEqual([
      [2, 1],
      [2, 2],
    ]);
    expect(received[0]!.part![0]).toBe(received[1]!.part![0]);
    expect(joined(received)).toBe(long);

    received = [];
    const ja = '未読メッセージ'.repeat(15);
    await queue('+81312345678', ja);
    expect(await centre().deliverPending()).toBe(1);
    expect(received.map((r) => [r.coding, r.part![1], r.part![2]])).toEqual([
      [0x08, 2, 1],
      [0x08, 2, 2],
    ]);
    expect(joined(received)).toBe(ja);

    // The centre refuses the second part: the message is tried again, and only its second part goes again, with
    // the first one's reference.
    received = [];
    refusePart = 2;
    await queue('+81312345679', ja);
    expect(await centre().deliverPending()).toBe(0);
    expect((await texts('+81312345679'))[0]!.status).toBe('failed');
    expect(received.map((r) => r.part![2])).toEqual([1]);
    expect(await centre().deliverPending()).toBe(1);
    expect(received.map((r) => r.part![2])).toEqual([1, 2]);
    expect(received[0]!.part![0]).toBe(received[1]!.part![0]);
    expect(joined(received)).toBe(ja);
    expect((await texts('+81312345679'))[0]!.status).toBe('sent');

    received = [];
    await queue('+81312345678', ja);
    expect(await centre('secret', 'payload').deliverPending()).toBe(1);
    expect(received).toEqual([{ to: '81312345678', from: 'Portal', text: ja, coding: 0x08, via: 'message_payload' }]);
  });

  it('are sent once when two deliveries run at the same time', async () => {
    for (let i = 0; i < 6; i += 1) await queue(`+4470000000${i}`, `Message ${i}`);
    const [a, b] = await Promise.all([centre().deliverPending(), centre().deliverPending()]);
    expect(a + b).toBe(6);
    expect(received.map((r) => r.text).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `Message ${i}`));
    // A claim a crashed process left behind runs out, then the message goes.
    await queue('+447000000099', 'Left behind');
    await h.db.query(`UPDATE mail_outbox SET claimed_until = now() + interval '5 minutes' WHERE to_address = $1`, [
      'sms:+447000000099',
    ]);
    expect(await centre().deliverPending()).toBe(0);
    await h.db.query(`UPDATE mail_outbox SET claimed_until = now() - interval '1 second' WHERE to_address = $1`, [
      'sms:+447000000099',
    ]);
    expect(await centre().deliverPending()).toBe(1);
    expect(received.at(-1)!.text).toBe('Left behind');
  });
});
