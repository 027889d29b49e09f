import {
  EmptyEnvelope,
  ListMsgByOrderBody,
  OrderMessage,
  OrderMessageList,
  ReadMsgBody,
  SendMsgBody,
  SysMsgList,
  SysMsgQuery,
  UnreadSummary,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { MessagesService } from './messages.service.js';

export function messagesModule(messages: MessagesService): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/msg/listMsgByOrder',
        {
          schema: {
            tags: ['messages'],
            summary: "An order's thread, newest first; reading it marks its message notifications read",
            body: ListMsgByOrderBody,
            response: { 200: envelope(OrderMessageList) },
          },
          config: { permission: 'order:view', errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await messages.listByOrder(request.auth, request.body)),
      );

      app.post(
        '/msg/send',
        {
          schema: {
            tags: ['messages'],
            summary: 'Write to the other side of an order, with attachments from order/save_attachments',
            body: SendMsgBody,
            response: { 200: envelope(OrderMessage) },
          },
          config: { permission: 'order:view', errors: ['MESSAGE_EMPTY', 'NOT_FOUND', 'ORDER_THREAD_READ_ONLY'] },
        },
        async (request) => ok(request, await messages.send(request.auth, request.body)),
      );

      app.post(
        '/msg/listSysMsg',
        {
          schema: {
            tags: ['messages'],
            summary: 'Notifications: msgType 2 order messages, 5 work orders; with unread counts',
            body: SysMsgQuery,
            response: { 200: envelope(SysMsgList) },
          },
          config: { permission: 'order:view' },
        },
        async (request) => ok(request, await messages.listSys(request.auth, request.body)),
      );

      app.post(
        '/msg/unreadCount',
        {
          schema: {
            tags: ['messages'],
            summary: 'Unread counts and the newest unread notification, for the header',
            response: { 200: envelope(UnreadSummary) },
          },
          config: { permission: 'order:view' },
        },
        async (request) => ok(request, await messages.unread(request.auth)),
      );

      app.post(
        '/msg/read',
        {
          schema: {
            tags: ['messages'],
            summary: 'Mark notifications read: by ids, type or order; all when empty',
            body: ReadMsgBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: 'order:view' },
        },
        async (request) => {
          await messages.read(request.auth, request.body);
          return ok(request, null);
        },
      );
    },
  };
}
