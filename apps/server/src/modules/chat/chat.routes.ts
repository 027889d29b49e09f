import { z } from 'zod';
import {
  ChatAttachmentList,
  ChatConversationList,
  ChatExportBody,
  ChatMessage,
  ChatMessageList,
  ChatMessagesBody,
  ChatReadBody,
  ChatSearchBody,
  ChatSendBody,
  FIELD_MAX,
  Permission,
  envelope,
} from '@portal/contracts';
import { fail } from '../../platform/errors.js';
import { ok } from '../../platform/http.js';
import { multipartParts, type MultipartLimits } from '../../platform/multipart.js';
import type { Module } from '../../platform/services.js';
import type { LiveHub } from '../live/live-hub.js';
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_PER_REQUEST } from '../orders/order-attachments.js';
import type { ChatService } from './chat.service.js';

const ATTACHMENT_PARTS: MultipartLimits = {
  fields: ['conversationCode'],
  fileField: 'file',
  maxFiles: ATTACHMENTS_PER_REQUEST,
  maxFileBytes: ATTACHMENT_MAX_BYTES,
};
const AttachmentBody = z.object({ attachmentCode: z.string().trim().min(1).max(FIELD_MAX.code) });
const CONVERSATION_ERRORS = ['NOT_FOUND'] as const;

/** How long a typing mark holds on the other side's screen unless renewed (the page sends one every few seconds). */
export const TYPING_HOLD_MS = 5_000;

export function chatModule(chat: ChatService, live: LiveHub): Module {
  // A typing mark goes to the sockets of the conversation's other organization; it is not kept.
  live.handle('chat.typing', async (auth, message) => {
    const code = typeof message.conversationCode === 'string' ? message.conversationCode.slice(0, FIELD_MAX.code) : '';
    if (!code) fail('PARAM_INVALID', { field: 'conversationCode' });
    const other = await chat.typingTarget(auth, code);
    if (other === undefined) return;
    await live.broadcast({
      organizationId: other,
      permission: Permission.ChatView,
      body: { t: 'chat.typing', conversationCode: code, name: auth.user.display_name, holdMs: TYPING_HOLD_MS },
    });
  });

  return {
    privateRoutes(app) {
      app.post(
        '/chat/conversations',
        {
          schema: {
            tags: ['chat'],
            summary: 'The conversations with partners and with support, with unread counts and read receipts',
            response: { 200: envelope(ChatConversationList) },
          },
          config: { permission: Permission.ChatView },
        },
        async (request) => ok(request, await chat.conversations(request.auth)),
      );

      app.post(
        '/chat/messages',
        {
          schema: {
            tags: ['chat'],
            summary: 'A page of a conversation, oldest first: the newest, or those before or after a message id',
            body: ChatMessagesBody,
            response: { 200: envelope(ChatMessageList) },
          },
          config: { permission: Permission.ChatView, errors: [...CONVERSATION_ERRORS] },
        },
        async (request) => ok(request, await chat.page(request.auth, request.body)),
      );

      app.post(
        '/chat/send',
        {
          schema: {
            tags: ['chat'],
            summary: 'Send a message (its clientId again returns the same message), with links and attachments',
            body: ChatSendBody,
            response: { 200: envelope(ChatMessage) },
          },
          config: {
            permission: Permission.ChatSend,
            errors: ['NOT_FOUND', 'MESSAGE_EMPTY', 'CHAT_READ_ONLY'],
          },
        },
        async (request) => ok(request, await chat.send(request.auth, request.body)),
      );

      app.post(
        '/chat/read',
        {
          schema: {
            tags: ['chat'],
            summary: 'Mark the conversation read up to a message, for the caller',
            body: ChatReadBody,
            response: { 200: envelope(z.object({ upTo: z.number() })) },
          },
          config: { permission: Permission.ChatView, errors: [...CONVERSATION_ERRORS] },
        },
        async (request) => ok(request, await chat.read(request.auth, request.body)),
      );

      app.post(
        '/chat/search',
        {
          schema: {
            tags: ['chat'],
            summary: 'Messages of a conversation holding the text anywhere (any script), newest first',
            body: ChatSearchBody,
            response: { 200: envelope(ChatMessageList) },
          },
          config: { permission: Permission.ChatView, errors: [...CONVERSATION_ERRORS] },
        },
        async (request) => ok(request, await chat.search(request.auth, request.body)),
      );

      app.post(
        '/chat/export',
        {
          schema: {
            tags: ['chat'],
            summary: 'A conversation as CSV (administrators); cells that a spreadsheet would run are kept as text',
            body: ChatExportBody,
            produces: ['text/csv'],
          },
          config: { permission: Permission.ChatExport, errors: [...CONVERSATION_ERRORS] },
        },
        async (request, reply) => {
          const file = await chat.exportCsv(request.auth, request.body.conversationCode);
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
            .send(file.body);
        },
      );

      app.post(
        '/chat/attachments',
        {
          schema: {
            tags: ['chat'],
            summary: `Files for a message (multipart: field "conversationCode" first, then up to ${ATTACHMENTS_PER_REQUEST} "file" parts of at most ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB, checked by content; all or none)`,
            response: { 200: envelope(ChatAttachmentList) },
          },
          config: {
            permission: Permission.ChatSend,
            multipart: ATTACHMENT_PARTS,
            errors: [
              'NOT_FOUND',
              'CHAT_READ_ONLY',
              'FILE_FORMAT_NOT_ACCEPTED',
              'FILE_TOO_LARGE',
              'FILE_CONTENT_MISMATCH',
              'TOO_MANY_FILES',
              'INSUFFICIENT_STORAGE',
            ],
          },
        },
        async (request) => {
          const parts = multipartParts(request);
          try {
            // The conversation is named first, so nothing is stored for one the caller is not part of.
            const first = await parts.next();
            if (first.done || first.value.type !== 'field')
              fail('PARAM_INVALID', { field: 'conversationCode' }, { field: 'conversationCode' });
            return ok(
              request,
              await chat.attach(request.auth, first.value.value, async (batch) => {
                for await (const part of parts) {
                  if (part.type === 'file') await batch.stage(part.filename, part.file);
                }
              }),
            );
          } finally {
            // Refused before the parts were all read (an unknown conversation): ending the parts reads and drops the
            // rest of the body, or the next request on this connection would never be answered.
            await parts.return(undefined);
          }
        },
      );

      app.post(
        '/chat/attachment',
        {
          schema: {
            tags: ['chat'],
            summary: 'The bytes of an attachment of one of your conversations',
            body: AttachmentBody,
          },
          config: { permission: Permission.ChatView, errors: ['NOT_FOUND'] },
        },
        async (request, reply) => {
          const file = await chat.openAttachment(request.auth, request.body.attachmentCode);
          return reply
            .header('content-type', 'application/octet-stream')
            .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
            .header('content-length', file.size)
            .header('cache-control', 'private, no-store')
            .send(file.stream);
        },
      );
    },
  };
}
