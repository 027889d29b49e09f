// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatConversation, ChatMessage } from '@portal/contracts';
import '../../../test/dom-shims';
import { mockServer, pending, server } from '../../../test/http-mock';
import { cleanup, renderScreen } from '../../../test/render';
import { $, $$, click, flush, type, waitFor } from '../../../test/dom';
import { signInAs } from '../../../test/session';
import ChatPage from './ChatPage';

vi.mock('../../../lib/http', () => import('../../../test/http-mock').then((m) => m.httpModule));

const conversation = (p: Partial<ChatConversation> = {}): ChatConversation => ({
  code: 'cv1',
  kind: 'partner',
  title: 'Lab One',
  readOnly: false,
  unread: 2,
  lastMessageAt: null,
  otherReadUpTo: 11,
  ...p,
});
const message = (id: number, p: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  clientId: `c${id}`,
  body: `Message ${id}`,
  refs: [],
  attachments: [],
  senderName: 'Someone',
  senderOrganization: 'Org',
  mine: false,
  createdAt: '2026-11-20T10:00:00Z',
  ...p,
});
let sendFails = false;
mockServer((path, body) => {
  if (path === 'chat/conversations')
    return Promise.resolve({
      list: [conversation(), conversation({ code: 'cv2', title: 'Old Lab', readOnly: true, unread: 0 })],
      unread: 2,
    });
  if (path === 'chat/messages')
    return Promise.resolve({
      list: [
        message(11, { mine: true, body: 'Mine', refs: [{ kind: 'order', code: 'o1' }] }),
        message(12, { mine: true, body: 'Mine too' }),
        message(13),
      ],
      hasMore: false,
    });
  if (path === 'chat/read') return Promise.resolve({ upTo: (body as { upTo: number }).upTo });
  if (path === 'chat/send')
    return sendFails ? Promise.reject(new Error('network')) : Promise.resolve(message(14, { mine: true }));
  return pending();
});

async function render(permissions: string[]) {
  signInAs(2, permissions);
  const rendered = await renderScreen('/chat', '/chat', <ChatPage />);
  await waitFor(() => $$('chat-message').length === 3);
  await flush(3);
  return rendered;
}

beforeEach(() => {
  sendFails = false;
});
afterEach(cleanup);

describe('chat screen', () => {
  it('shows unread counts, marks what it shows read, and read receipts on own messages up to the mark', async () => {
    await render(['chat:view', 'chat:send']);
    expect($('chat-conversation-cv1')?.textContent).toContain('2');
    await waitFor(() => server.lastCall('chat/read'));
    expect(server.lastCall('chat/read')).toEqual({ conversationCode: 'cv1', upTo: 13 });
    expect($$('chat-read-mark')).toHaveLength(1);
    expect(document.querySelector('a[href="/order-management/detail/o1"]')).not.toBeNull();
    // The export is for administrators: removed without the permission.
    expect($('chat-export')).toBeNull();
  });

  it('sends again with the same client id after a failure, and a new id for the next message', async () => {
    await render(['chat:view', 'chat:send', 'chat:export']);
    expect($('chat-export')).not.toBeNull();
    sendFails = true;
    await type($('chat-input')?.querySelector('textarea') ?? $('chat-input'), 'Shade A2');
    await click($('chat-send'));
    await flush(3);
    const first = server.lastCall('chat/send') as { clientId: string; body: string };
    expect(first).toMatchObject({ conversationCode: 'cv1', body: 'Shade A2' });
    expect(first.clientId).toMatch(/^m[0-9a-f]{24}$/);
    sendFails = false;
    await click($('chat-send'));
    await flush(3);
    expect((server.lastCall('chat/send') as { clientId: string }).clientId).toBe(first.clientId);
    await type($('chat-input')?.querySelector('textarea') ?? $('chat-input'), 'Next');
    await click($('chat-send'));
    await flush(3);
    expect((server.lastCall('chat/send') as { clientId: string }).clientId).not.toBe(first.clientId);
  });

  it('shows an ended partnership read-only, without the composer', async () => {
    await render(['chat:view', 'chat:send']);
    await click($('chat-conversation-cv2'));
    await waitFor(() => $('chat-read-only'));
    expect($('chat-read-only')).not.toBeNull();
    expect($('chat-input')).toBeNull();
  });

  it('has no composer without the send permission', async () => {
    await render(['chat:view']);
    expect($('chat-input')).toBeNull();
  });
});
