import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { zBool, zInt, zIntOf, zPage, zRequiredText, zText } from './fields.js';
import { OrderAttachment } from './orders.js';

/** §3 message types: 2 = order messages (the thread), 5 = work orders (status changes). */
export const MSG_TYPES = { orderMessage: 2, workOrder: 5 } as const;
export const MSG_TYPE_VALUES = [MSG_TYPES.orderMessage, MSG_TYPES.workOrder] as const;
const zMsgType = zIntOf(2, 5);

export const OrderMessage = z.object({
  id: z.number(),
  content: z.string(),
  attachments: z.array(OrderAttachment),
  senderName: z.string(),
  senderOrganization: z.string(),
  mine: z.boolean(),
  createdAt: z.string(),
});
export type OrderMessage = z.infer<typeof OrderMessage>;
export const ListMsgByOrderBody = z.object({ orderCode: zRequiredText(FIELD_MAX.code), ...zPage });
export type ListMsgByOrderBody = z.infer<typeof ListMsgByOrderBody>;
export const OrderMessageList = z.object({ total: z.number(), list: z.array(OrderMessage) });
export const SendMsgBody = z.object({
  orderCode: zRequiredText(FIELD_MAX.code),
  content: zText(2000).default(''),
  attachmentCodes: z.array(zRequiredText(FIELD_MAX.code)).max(10).default([]),
});
export type SendMsgBody = z.infer<typeof SendMsgBody>;

/** A notification (§3): what happened to which order, in the reader's language. */
export const SysMsg = z.object({
  id: z.number(),
  msgType: z.number(),
  /** The order it is about, or the chat conversation (`subject` says which). */
  code: z.string(),
  subject: z.enum(['order', 'chat']),
  title: z.string(),
  content: z.string(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type SysMsg = z.infer<typeof SysMsg>;
export const MsgCount = z.object({ msgType: z.number(), count: z.number() });
export const SysMsgQuery = z.object({ ...zPage, msgType: zMsgType.optional(), unreadOnly: zBool.default(false) });
export type SysMsgQuery = z.infer<typeof SysMsgQuery>;
export const SysMsgList = z.object({ total: z.number(), list: z.array(SysMsg), counts: z.array(MsgCount) });
/** The header's poll: unread counts and the newest notification, so the page knows when to pop one up. */
export const UnreadSummary = z.object({ total: z.number(), counts: z.array(MsgCount), latest: SysMsg.nullable() });
/** Marks notifications read: the listed ids, or all of a type, or all of an order; all when empty. */
export const ReadMsgBody = z.object({
  ids: z.array(zInt).max(500).optional(),
  msgType: zMsgType.optional(),
  orderCode: zText(FIELD_MAX.code).optional(),
});
export type ReadMsgBody = z.infer<typeof ReadMsgBody>;
