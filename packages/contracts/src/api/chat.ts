import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { zIntIn, zRequiredText, zText } from './fields.js';
import { OrderAttachment } from './orders.js';

/** Chat limits (docs/product-decisions.md, "Chat"). */
export const CHAT_LIMITS = {
  /** Characters of one message. */
  messageChars: 4_000,
  /** Links to cases and orders in one message. */
  refs: 10,
  /** Attachments in one message. */
  attachments: 10,
  /** Messages of one page. */
  pageMax: 100,
  /** Characters a search looks for. */
  searchChars: 100,
  /** Messages one export holds. */
  exportMax: 50_000,
} as const;

/** How long a new message pops up on the page (spec §9, notification pop-up). */
export const CHAT_POPUP_MS = 3_000;

/** A client's id for a message it sends: the same id again is the same message. */
const zClientId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { message: 'clientId' });
const zConversation = zRequiredText(FIELD_MAX.code);

export const ChatRef = z.object({ kind: z.enum(['case', 'order']), code: zRequiredText(FIELD_MAX.code) });
export type ChatRef = z.infer<typeof ChatRef>;

export const ChatConversation = z.object({
  code: z.string(),
  kind: z.enum(['partner', 'support']),
  /** The other organization's name. */
  title: z.string(),
  /** The partnership ended: the history stays readable, nothing can be sent. */
  readOnly: z.boolean(),
  unread: z.number(),
  lastMessageAt: z.string().nullable(),
  /** The highest message id every member of the other organization has read up to (read receipts). */
  otherReadUpTo: z.number(),
});
export type ChatConversation = z.infer<typeof ChatConversation>;
export const ChatConversationList = z.object({ list: z.array(ChatConversation), unread: z.number() });

export const ChatMessage = z.object({
  id: z.number(),
  clientId: z.string(),
  body: z.string(),
  refs: z.array(ChatRef),
  attachments: z.array(OrderAttachment),
  senderName: z.string(),
  senderOrganization: z.string(),
  mine: z.boolean(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** A page of messages, oldest first: the newest when neither bound is given, else those before or after an id. */
export const ChatMessagesBody = z.object({
  conversationCode: zConversation,
  before: zIntIn(1, Number.MAX_SAFE_INTEGER).optional(),
  after: zIntIn(0, Number.MAX_SAFE_INTEGER).optional(),
  limit: zIntIn(1, CHAT_LIMITS.pageMax).default(50),
});
export type ChatMessagesBody = z.infer<typeof ChatMessagesBody>;
export const ChatMessageList = z.object({ list: z.array(ChatMessage), hasMore: z.boolean() });

export const ChatSendBody = z.object({
  conversationCode: zConversation,
  clientId: zClientId,
  body: zText(CHAT_LIMITS.messageChars).default(''),
  refs: z.array(ChatRef).max(CHAT_LIMITS.refs).default([]),
  attachmentCodes: z.array(zRequiredText(FIELD_MAX.code)).max(CHAT_LIMITS.attachments).default([]),
});
export type ChatSendBody = z.infer<typeof ChatSendBody>;

/** Marks the conversation read up to a message (the newest shown). */
export const ChatReadBody = z.object({ conversationCode: zConversation, upTo: zIntIn(1, Number.MAX_SAFE_INTEGER) });
export type ChatReadBody = z.infer<typeof ChatReadBody>;

export const ChatSearchBody = z.object({
  conversationCode: zConversation,
  q: zRequiredText(CHAT_LIMITS.searchChars),
  limit: zIntIn(1, CHAT_LIMITS.pageMax).default(50),
});
export type ChatSearchBody = z.infer<typeof ChatSearchBody>;

export const ChatExportBody = z.object({ conversationCode: zConversation });

export const ChatAttachmentList = z.object({ list: z.array(OrderAttachment) });
