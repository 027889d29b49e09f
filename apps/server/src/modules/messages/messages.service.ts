import {
  MSG_TYPES,
  type SysMsg,
  type ListMsgByOrderBody,
  type ReadMsgBody,
  type SendMsgBody,
  type SysMsgQuery,
} from '@portal/contracts';
import type { AuthContext } from '../../platform/auth.js';
import type { Db } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { threadIsOpen } from '../orders/lab-scans.js';
import { toAttachment } from '../orders/order-attachments.js';
import { renderNotice, type OrderNotifier } from '../orders/order-notifier.js';
import type { OrdersService } from '../orders/orders.service.js';
import { messagesRepository, type NotificationRow } from './messages.repository.js';

/** Notifications show the message's first words. */
const EXCERPT_CHARS = 120;

/** The thread of each order, and each user's notifications about orders. */
export class MessagesService {
  constructor(
    private readonly db: Db,
    private readonly orders: OrdersService,
    private readonly notifier: OrderNotifier,
  ) {}

  /** Newest first; reading the thread marks its message notifications read for the reader. */
  async listByOrder(auth: AuthContext, q: ListMsgByOrderBody) {
    const { order } = await this.orders.findForCaller(auth, q.orderCode);
    const { total, rows } = await messagesRepository.thread(
      this.db,
      order.id,
      q.pageSize,
      (q.pageNum - 1) * q.pageSize,
    );
    const attachments = rows.length
      ? await this.orders.attachments.listByMessages(
          this.db,
          rows.map((r) => Number(r.id)),
        )
      : [];
    await this.notifier.markOrderRead(auth.userId, order.id, MSG_TYPES.orderMessage);
    return {
      total,
      list: rows.map((m) => ({
        id: Number(m.id),
        content: m.content,
        senderName: m.sender ?? '',
        senderOrganization: m.org,
        mine: Number(m.sender_organization_id) === auth.organizationId,
        createdAt: new Date(m.created_at).toISOString(),
        attachments: attachments
          .filter((a) => Number(a.message_id) === Number(m.id))
          .map((a) => toAttachment(a, auth.organizationId)),
      })),
    };
  }

  async send(auth: AuthContext, body: SendMsgBody) {
    const content = body.content.trim();
    if (!content && body.attachmentCodes.length === 0) fail('MESSAGE_EMPTY', {}, { field: 'content' });
    const { order } = await this.orders.findForCaller(auth, body.orderCode);
    if (!threadIsOpen(order)) fail('ORDER_THREAD_READ_ONLY');
    const id = await this.db.transaction(async (tx) => {
      const messageId = await messagesRepository.insert(tx, {
        orderId: order.id,
        userId: auth.userId,
        orgId: auth.organizationId,
        content,
      });
      await this.orders.attachments.bindToMessage(
        tx,
        Number(order.id),
        auth.organizationId,
        messageId,
        body.attachmentCodes,
      );
      const excerpt =
        content.length > EXCERPT_CHARS
          ? `${content.slice(0, EXCERPT_CHARS)}…`
          : content || `📎 ${body.attachmentCodes.length}`;
      await this.notifier.record(tx, [Number(order.id)], 'message', auth.organizationId, {
        sender: auth.user.display_name,
        organization: auth.user.org_name,
        excerpt,
      });
      return messageId;
    });
    const attachments = await this.orders.attachments.listByMessages(this.db, [id]);
    return {
      id,
      content,
      senderName: auth.user.display_name,
      senderOrganization: auth.user.org_name,
      mine: true,
      createdAt: new Date().toISOString(),
      attachments: attachments.map((a) => toAttachment(a, auth.organizationId)),
    };
  }

  private toSysMsg(r: NotificationRow, lang: string): SysMsg {
    const params = typeof r.params === 'string' ? (JSON.parse(r.params) as Record<string, string>) : r.params;
    return {
      id: Number(r.id),
      msgType: r.msg_type,
      code: r.code,
      subject: r.subject,
      ...renderNotice(lang, r.event, r, params),
      read: r.read_at !== null,
      createdAt: new Date(r.created_at).toISOString(),
    };
  }

  private async counts(userId: number) {
    const rows = await messagesRepository.unreadCounts(this.db, userId);
    return [MSG_TYPES.orderMessage, MSG_TYPES.workOrder].map((msgType) => ({
      msgType,
      count: rows.find((r) => r.msg_type === msgType)?.count ?? 0,
    }));
  }

  async listSys(auth: AuthContext, q: SysMsgQuery) {
    const [{ total, rows }, counts] = await Promise.all([
      messagesRepository.page(
        this.db,
        auth.userId,
        { msgType: q.msgType ?? null, unreadOnly: q.unreadOnly },
        q.pageSize,
        (q.pageNum - 1) * q.pageSize,
      ),
      this.counts(auth.userId),
    ]);
    return { total, list: rows.map((r) => this.toSysMsg(r, auth.user.language)), counts };
  }

  /** The header's poll: cheap, from the partial index of unread notifications. */
  async unread(auth: AuthContext) {
    const [counts, latest] = await Promise.all([
      this.counts(auth.userId),
      messagesRepository.latestUnread(this.db, auth.userId),
    ]);
    return {
      total: counts.reduce((sum, c) => sum + c.count, 0),
      counts,
      latest: latest ? this.toSysMsg(latest, auth.user.language) : null,
    };
  }

  async read(auth: AuthContext, body: ReadMsgBody) {
    await this.notifier.markRead(auth.userId, {
      ids: body.ids ?? null,
      msgType: body.msgType ?? null,
      orderCode: body.orderCode ?? null,
    });
  }
}
