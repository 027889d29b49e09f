import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, createUser, login, type Harness } from './harness.js';
import { count, member, newCase, partner, sendToLab, side, type Side } from './fixtures.js';
import { LiveClient } from './live-client.js';
import { PNG } from './uploads.js';

/** Chat between partner organizations and with the site's operator (docs/product-decisions.md, "Chat"). */
let h: Harness;
let base: string;
let clinic: Side;
let lab: Side;
let stranger: Side;
let operator: { token: string; organizationId: number };
let conversation: string;
let partnerCode: string;
const sockets: LiveClient[] = [];
let seq = 0;
const clientId = () => `client-${Date.now()}-${(seq += 1)}`;

const call = (s: { token: string }, path: string, body: Record<string, unknown> = {}) =>
  h.call(`chat/${path}`, { token: s.token, body });
async function conversationsOf(s: { token: string }) {
  const res = await call(s, 'conversations');
  expect(res.code).toBe(200);
  return res.data as {
    unread: number;
    list: Array<{
      code: string;
      kind: string;
      title: string;
      readOnly: boolean;
      unread: number;
      otherReadUpTo: number;
    }>;
  };
}
async function send(s: { token: string }, body: string, extra: Record<string, unknown> = {}) {
  return call(s, 'send', { conversationCode: conversation, clientId: clientId(), body, ...extra });
}
async function upload(s: { token: string }, code: string, files: { name: string; bytes: Buffer }[]) {
  const form = new FormData();
  form.append('conversationCode', code);
  for (const f of files) form.append('file', new Blob([new Uint8Array(f.bytes)]), f.name);
  const res = await fetch(`${base}/api/v2/chat/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.token}` },
    body: form,
  });
  return (await res.json()) as { code: number; data: { list: Array<{ code: string }> } };
}

beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
  stranger = await side(h, OrgType.Clinic);
  const op = await createUser(h.db, { orgType: OrgType.Inner });
  operator = { token: (await login(h, op.account)).accessToken, organizationId: op.organizationId };
  partnerCode = await partner(h, clinic, lab);
  const mine = await conversationsOf(clinic);
  conversation = mine.list.find((c) => c.kind === 'partner')!.code;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await h.close();
});

describe('conversations', () => {
  it('gives each side one conversation per partnership and a support conversation with the operator', async () => {
    const mine = await conversationsOf(clinic);
    expect(mine.list.filter((c) => c.kind === 'partner')).toHaveLength(1);
    expect(mine.list.filter((c) => c.kind === 'support')).toHaveLength(1);
    const theirs = await conversationsOf(lab);
    expect(theirs.list.find((c) => c.kind === 'partner')!.code).toBe(conversation);
    // Asking again makes none twice.
    await conversationsOf(clinic);
    expect(await count(h, 'chat_conversations WHERE first_organization_id = $1', [clinic.organizationId])).toBe(2);
    expect(await conversationsOf(stranger)).toMatchObject({
      list: [expect.objectContaining({ kind: 'support' })],
    });
  });

  it('refuses another organization, and members without the permission', async () => {
    expect((await call(stranger, 'messages', { conversationCode: conversation })).code).toBe(404);
    expect((await send(stranger, 'Hello')).code).toBe(404);
    expect((await call(stranger, 'search', { conversationCode: conversation, q: 'x' })).code).toBe(404);
    expect((await call(stranger, 'export', { conversationCode: conversation })).code).toBe(404);
    const reader = await member(h, clinic, OrgType.Clinic, ['chat']);
    expect((await send(reader, 'Hello')).code).toBe(1002);
    expect((await call(reader, 'export', { conversationCode: conversation })).code).toBe(1002);
    expect((await call(reader, 'messages', { conversationCode: conversation })).code).toBe(200);
    const none = await member(h, clinic, OrgType.Clinic, ['cases']);
    expect((await call(none, 'conversations')).code).toBe(1002);
  });
});

describe('messages', () => {
  it('stores a resent client id once, and tells both sides through their sockets', async () => {
    const watching = new LiveClient(base);
    sockets.push(watching);
    await watching.auth(lab.token);
    const id = clientId();
    const first = await call(clinic, 'send', { conversationCode: conversation, clientId: id, body: 'Shade A2 please' });
    expect(first.code).toBe(200);
    const again = await call(clinic, 'send', { conversationCode: conversation, clientId: id, body: 'Shade A2 please' });
    expect(again.data.id).toBe(first.data.id);
    expect(await count(h, 'chat_messages WHERE client_id = $1', [id])).toBe(1);
    const event = await watching.until(
      () => watching.events.find((e) => e.kind === 'chat.message' && e.data.messageId === first.data.id),
      'chat event',
    );
    expect(event.subject).toBe(conversation);
    expect(watching.events.filter((e) => e.data.messageId === first.data.id)).toHaveLength(1);
  });

  it('counts unread messages per user, and read marks move them and the read receipts', async () => {
    await send(lab, 'Received, starting today');
    const last = (await send(lab, 'Will ship Friday')).data.id as number;
    const before = (await conversationsOf(clinic)).list.find((c) => c.code === conversation)!;
    expect(before.unread).toBe(2);
    expect((await conversationsOf(lab)).list.find((c) => c.code === conversation)!.otherReadUpTo).toBeLessThan(last);
    // The clinic's own messages are never unread for the clinic.
    expect((await call(clinic, 'read', { conversationCode: conversation, upTo: last })).data.upTo).toBe(last);
    expect((await conversationsOf(clinic)).list.find((c) => c.code === conversation)!.unread).toBe(0);
    expect((await conversationsOf(lab)).list.find((c) => c.code === conversation)!.otherReadUpTo).toBe(last);
    // A mark never moves back, nor past the newest message.
    await call(clinic, 'read', { conversationCode: conversation, upTo: 1 });
    expect((await call(clinic, 'read', { conversationCode: conversation, upTo: last + 1000 })).data.upTo).toBe(last);
  });

  it('pages before and after a message, oldest first', async () => {
    for (let i = 0; i < 5; i++) await send(clinic, `Page note ${i}`);
    const newest = await call(clinic, 'messages', { conversationCode: conversation, limit: 3 });
    expect(newest.data.list.map((m: { body: string }) => m.body)).toEqual([
      'Page note 2',
      'Page note 3',
      'Page note 4',
    ]);
    expect(newest.data.hasMore).toBe(true);
    const older = await call(clinic, 'messages', {
      conversationCode: conversation,
      before: newest.data.list[0].id,
      limit: 2,
    });
    expect(older.data.list.map((m: { body: string }) => m.body)).toEqual(['Page note 0', 'Page note 1']);
    const after = await call(clinic, 'messages', { conversationCode: conversation, after: older.data.list[1].id });
    expect(after.data.list[0].body).toBe('Page note 2');
    expect(after.data.hasMore).toBe(false);
  });

  it('finds Chinese and Japanese substrings, and takes % and _ literally', async () => {
    await send(lab, '牙冠已经完成，明天发货');
    await send(lab, '色調はA2でお願いします');
    await send(lab, '100% done_now');
    const find = async (q: string) =>
      (await call(clinic, 'search', { conversationCode: conversation, q })).data.list.map(
        (m: { body: string }) => m.body,
      );
    expect(await find('完成')).toEqual(['牙冠已经完成，明天发货']);
    expect(await find('A2で')).toEqual(['色調はA2でお願いします']);
    expect(await find('%')).toEqual(['100% done_now']);
    expect(await find('e_n')).toEqual(['100% done_now']);
    expect(await find('shade a2')).toEqual(['Shade A2 please']);
  });

  it('links orders and cases of the two organizations, and refuses others naming the link', async () => {
    const caseCode = await newCase(h, clinic);
    const [orderCode] = await sendToLab(h, clinic, partnerCode, [caseCode]);
    const linked = await send(clinic, 'See the order', {
      refs: [
        { kind: 'order', code: orderCode },
        { kind: 'case', code: caseCode },
      ],
    });
    expect(linked.data.refs).toEqual([
      { kind: 'order', code: orderCode },
      { kind: 'case', code: caseCode },
    ]);
    // The laboratory may link the case of its order too.
    expect((await send(lab, 'Case', { refs: [{ kind: 'case', code: caseCode }] })).code).toBe(200);
    const othersCase = await newCase(h, stranger);
    const stored = await count(h, 'chat_messages');
    const refused = await send(clinic, 'Not mine', { refs: [{ kind: 'case', code: othersCase }] });
    expect(refused).toMatchObject({ code: 404, data: { field: 'refs.0' } });
    expect(await count(h, 'chat_messages')).toBe(stored);
  });

  it('answers bad input with a clear error naming the field, storing nothing', async () => {
    const stored = await count(h, 'chat_messages');
    expect(await send(clinic, '   ')).toMatchObject({ code: 2040 });
    const long = await send(clinic, 'x'.repeat(4_001));
    expect(long.code).toBe(400);
    expect(JSON.stringify(long.data)).toContain('body');
    const badId = await call(clinic, 'send', { conversationCode: conversation, clientId: 'a b', body: 'Hi' });
    expect(badId.code).toBe(400);
    expect(JSON.stringify(badId.data)).toContain('clientId');
    expect((await call(clinic, 'messages', { conversationCode: conversation, limit: 1_000 })).code).toBe(400);
    expect((await call(clinic, 'search', { conversationCode: conversation, q: '' })).code).toBe(400);
    expect(await count(h, 'chat_messages')).toBe(stored);
  });

  it('takes attachments checked like order attachments, bound to the message they are sent with', async () => {
    const up = await upload(clinic, conversation, [{ name: 'shade.png', bytes: PNG }]);
    expect(up.code).toBe(200);
    const code = up.data.list[0]!.code;
    const sent = await send(clinic, '', { attachmentCodes: [code] });
    expect(sent.data.attachments).toMatchObject([{ code, name: 'shade.png', mine: true }]);
    const file = await h.app.inject({
      method: 'POST',
      url: '/api/v2/chat/attachment',
      headers: { authorization: `Bearer ${lab.token}` },
      payload: { attachmentCode: code },
    });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    const theirs = await h.call('chat/attachment', { token: stranger.token, body: { attachmentCode: code } });
    expect(theirs.code).toBe(404);
    // A file whose bytes are not what its name says is refused and nothing is kept.
    const files = await count(h, 'chat_attachments');
    expect((await upload(clinic, conversation, [{ name: 'x.png', bytes: Buffer.from('not an image') }])).code).toBe(
      2026,
    );
    expect((await upload(stranger, conversation, [{ name: 'shade.png', bytes: PNG }])).code).toBe(404);
    expect(await count(h, 'chat_attachments')).toBe(files);
    // Bound once: another message cannot take it again.
    expect((await send(clinic, 'again', { attachmentCodes: [code] })).code).toBe(404);
  });

  it('answers an attachment for an unknown conversation 404, and the next request on the connection too', async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await Promise.race([
        upload(lab, 'cv-unknown', [{ name: 'photo.png', bytes: PNG }]),
        new Promise<'no answer'>((r) => setTimeout(() => r('no answer'), 10_000)),
      ]);
      expect(answer).toMatchObject({ code: 404 });
    }
  });

  it('answers an attachment for a conversation code with a NUL or control characters 400, storing nothing', async () => {
    for (const code of ['a\u0000b', '\u001b[2J']) {
      const answer = await Promise.race([
        upload(lab, code, [{ name: 'photo.png', bytes: PNG }]),
        new Promise<'no answer'>((r) => setTimeout(() => r('no answer'), 10_000)),
      ]);
      expect(answer).toMatchObject({ code: 400 });
      // The same with a body whose closing boundary never comes.
      const b = '----gate59bd5996300f015e';
      const body = Buffer.concat([
        Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="conversationCode"\r\n\r\n${code}\r\n--${b}\r\n`),
        Buffer.from(
          `Content-Disposition: form-data; name="file"; filename="photo.png"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        PNG,
        Buffer.from('\r\n-'),
      ]);
      const cut = await fetch(`${base}/api/v2/chat/attachments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${lab.token}`, 'content-type': `multipart/form-data; boundary=${b}` },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      expect(((await cut.json()) as { code: number }).code).toBe(400);
    }
  });

  it('sends typing marks to the other side only, keeping none', async () => {
    const labSocket = new LiveClient(base);
    const clinicSocket = new LiveClient(base);
    const strangerSocket = new LiveClient(base);
    sockets.push(labSocket, clinicSocket, strangerSocket);
    await labSocket.auth(lab.token);
    await clinicSocket.auth(clinic.token);
    await strangerSocket.auth(stranger.token);
    clinicSocket.send({ t: 'chat.typing', conversationCode: conversation });
    const mark = await labSocket.until(() => labSocket.frames.find((f) => f.t === 'chat.typing'), 'typing');
    expect(mark).toMatchObject({ conversationCode: conversation });
    strangerSocket.send({ t: 'chat.typing', conversationCode: conversation });
    const refused = await strangerSocket.until(() => strangerSocket.frames.find((f) => f.t === 'error'), 'error');
    expect(refused).toMatchObject({ code: 404, of: 'chat.typing' });
    expect(clinicSocket.frames.some((f) => f.t === 'chat.typing')).toBe(false);
  });
});

describe('support and the end of a partnership', () => {
  it('lets an organization write to the operator, who sees the conversation once it holds a message', async () => {
    const support = (await conversationsOf(clinic)).list.find((c) => c.kind === 'support')!;
    expect((await conversationsOf(operator)).list.some((c) => c.code === support.code)).toBe(false);
    expect(
      (await call(clinic, 'send', { conversationCode: support.code, clientId: clientId(), body: 'Help' })).code,
    ).toBe(200);
    const seen = (await conversationsOf(operator)).list.find((c) => c.code === support.code)!;
    expect(seen).toMatchObject({ unread: 1, readOnly: false });
    expect(
      (await call(operator, 'send', { conversationCode: support.code, clientId: clientId(), body: 'Sure' })).code,
    ).toBe(200);
  });

  it('makes the conversation of an ended partnership read-only, its history still readable', async () => {
    const c2 = await side(h, OrgType.Clinic);
    const l2 = await side(h, OrgType.Lab);
    const code = await partner(h, c2, l2);
    const conv = (await conversationsOf(c2)).list.find((c) => c.kind === 'partner')!.code;
    await call(c2, 'send', { conversationCode: conv, clientId: clientId(), body: 'Before the end' });
    expect((await h.call('partner/terminate', { token: c2.token, body: { partnerCode: code } })).code).toBe(200);
    const stored = await count(h, 'chat_messages');
    const refused = await call(l2, 'send', { conversationCode: conv, clientId: clientId(), body: 'After' });
    expect(refused).toMatchObject({ code: 2090, data: { field: 'conversationCode' } });
    expect(await count(h, 'chat_messages')).toBe(stored);
    expect((await conversationsOf(l2)).list.find((c) => c.code === conv)!.readOnly).toBe(true);
    const history = await call(l2, 'messages', { conversationCode: conv });
    expect(history.data.list.map((m: { body: string }) => m.body)).toEqual(['Before the end']);
  });
});

describe('export', () => {
  it('writes CSV whose cells a spreadsheet would run are kept as text', async () => {
    for (const body of ['=HYPERLINK("http://x")', '+1+1', '-2', '@SUM(A1)', 'plain, "quoted"'])
      await send(clinic, body);
    // Messages are trimmed; a tab or a carriage return can still lead a name.
    await h.db.query('UPDATE users SET display_name = $2 WHERE id = $1', [lab.userId, '\tTabbed']);
    await h.db.query('UPDATE organizations SET name = $2 WHERE id = $1', [lab.organizationId, '\rReturned']);
    await send(lab, 'From the lab');
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/v2/chat/export',
      headers: { authorization: `Bearer ${clinic.token}` },
      payload: { conversationCode: conversation },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const text = res.body;
    expect(text).toContain('Time,Organization,Sender,Message,Links');
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    for (const cell of ["'+1+1", "'-2", "'@SUM(A1)", "'\tTabbed", `"'\rReturned"`, '"plain, ""quoted"""'])
      expect(text).toContain(cell);
    expect(text).toContain('牙冠已经完成');
    const bad = await h.call('chat/export', { token: clinic.token, body: {} });
    expect(bad.code).toBe(400);
  });
});

describe('search index', () => {
  it('has the trigram index on both databases', async () => {
    const [row] = await h.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'chat_messages_body_trgm'`,
    );
    expect(row!.n).toBe(1);
  });
});
