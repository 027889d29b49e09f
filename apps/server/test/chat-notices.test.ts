import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as smpp from 'smpp';
import { OrgType } from '@portal/contracts';
import { ChatNotices } from '../src/modules/chat/chat-notices.js';
import { OutboxSmsSender, SmppDelivery, smsFields } from '../src/platform/sms.js';
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
const notices = () => new ChatNotices(h.db, new OutboxSmsSender(true), QUIET_MINUTES, 'Dental Portal').run();
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
  it('go to an SMS reader through an SMPP session, in the alphabet their text needs', async () => {
    const received: Array<{ to: string; text: string; coding: number; via: string }> = [];
    const binds: Array<{ system_id: string; password: string }> = [];
    const server = smpp.createServer((session) => {
      session.on('bind_transmitter', (pdu) => {
        binds.push({ system_id: String(pdu.system_id), password: String(pdu.password) });
        session.send(pdu.response(pdu.password === 'secret' ? {} : { command_status: smpp.ESME_RBINDFAIL }));
      });
      session.on('submit_sm', (pdu) => {
        const payload = pdu.message_payload as { message?: string } | string | undefined;
        const short = pdu.short_message as { message?: string } | string | undefined;
        const text = (v: typeof payload) => (typeof v === 'string' ? v : (v?.message ?? ''));
        received.push({
          to: String(pdu.destination_addr),
          text: text(short) || text(payload),
          coding: Number(pdu.data_coding),
          via: text(short) ? 'short_message' : 'message_payload',
        });
        session.send(pdu.response({ message_id: `m${received.length}` }));
      });
      session.on('unbind', (pdu) => session.send(pdu.response()));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = server.address().port;
    try {
      await readAll(lab);
      await receiveBy(lab, 'sms', '+49 151 2345 6789');
      await h.db.query(`UPDATE users SET language = 'ja' WHERE id = $1`, [lab.userId]);
      await send(clinic, '16番のマージンを確認してください');
      await age(QUIET_MINUTES + 1);
      expect(await notices()).toEqual({ letters: 0, texts: 1 });
      const [stored] = await texts('+49 151 2345 6789');
      expect(stored!.status).toBe('pending');
      expect(stored!.body_text).toContain(await orgName(clinic));
      // The message's own text is not in the notice (it may name a patient).
      expect(stored!.body_text).not.toContain('マージン');

      // A centre that refuses the password: the message stays, to be tried again.
      const refused = new SmppDelivery(
        h.db,
        { url: `smpp://portal:wrong@127.0.0.1:${port}`, sourceAddr: 'Portal' },
        h.app.log,
      );
      expect(await refused.deliverPending()).toBe(0);
      expect((await texts('+49 151 2345 6789'))[0]!.status).toBe('failed');
      // No centre at all: the same, and no crash.
      const away = new SmppDelivery(h.db, { url: 'smpp://portal:secret@127.0.0.1:1', sourceAddr: 'Portal' }, h.app.log);
      expect(await away.deliverPending()).toBe(0);

      const delivery = new SmppDelivery(
        h.db,
        { url: `smpp://portal:secret@127.0.0.1:${port}`, sourceAddr: 'Portal' },
        h.app.log,
      );
      expect(await delivery.deliverPending()).toBe(1);
      expect(binds.at(-1)).toEqual({ system_id: 'portal', password: 'secret' });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ to: '4915123456789', via: 'short_message', coding: 0x08 });
      expect(received[0]!.text).toBe(stored!.body_text);
      expect((await texts('+49 151 2345 6789'))[0]!.status).toBe('sent');
      // Sent once: nothing left to send.
      expect(await delivery.deliverPending()).toBe(0);
      // A mail retry never takes a text message for a mail.
      expect((await texts('+49 151 2345 6789'))[0]!.status).toBe('sent');
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  it('pick the smallest alphabet, and send long texts whole', () => {
    expect(smsFields('Unread chat messages: 2')).toEqual({ encoding: 'ASCII', field: 'short_message' });
    expect(smsFields('Ungelesene Nachrichten von Zahnärzte Müller: 2').encoding).toBe('ASCII');
    expect(smsFields('来自 Bright Smile 的未读聊天消息 2 条')).toEqual({ encoding: 'UCS2', field: 'short_message' });
    expect(smsFields('x'.repeat(161)).field).toBe('message_payload');
    expect(smsFields('x'.repeat(160)).field).toBe('short_message');
    expect(smsFields('未'.repeat(71)).field).toBe('message_payload');
  });
});
