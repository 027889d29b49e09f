import { MSG_TYPES, type SysMsg } from '@portal/contracts';
import type { AuthContext } from '../../platform/auth.js';
import type { Db } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import { toAttachment } from '../orders/order-attachments.js';
import { renderNotice, type OrderNotifier } from '../orders/order-notifier.js';
import type { OrdersService } from '../orders/orders.service.js';

/** Notifications show the message's first words. */
const EXCERPT_CHARS = 120;

interface NotificationRow {
  id: number;
  msg_type: number;
  event: string;
  params: Record<string, string> | string;
  read_at: Date | null;
  created_at: Date;
  code: string;
  case_name: string;
  clinic_name: string;
  lab_name: string;
  tracking_number: string | null;
}

/** The thread of each order, and each user's notifications about orders. */
export class MessagesService {
  constructor(
    private readonly db: Db,
    private readonly orders: OrdersService,
    private readonly notifier: OrderNotifier,
  ) {}

  /** Newest first; reading the thread marks its message notifications read for the reader. */
  async listByOrder(auth: AuthContext, q: { orderCode: string; pageNum: number; pageSize: number }) {
    const { order } = await this.orders.findForCaller(auth, q.orderCode);
    const [rows, [counted]] = await Promise.all([
      this.db.query<{
        id: number;
        content: string;
        sender: string | null;
        org: string;
        sender_organization_id: number;
        created_at: Date;
      }>(
        `SELECT m.id, m.content, u.display_name AS sender, og.name AS org, m.sender_organization_id, m.created_at FROM order_messages m
           LEFT JOIN users u ON u.id = m.sender_user_id JOIN organizations og ON og.id = m.sender_organization_id
          WHERE m.order_id = $1 ORDER BY m.id DESC LIMIT $2 OFFSET $3`,
        [order.id, q.pageSize, (q.pageNum - 1) * q.pageSize],
      ),
      this.db.query<{ total: number }>('SELECT count(*)::int AS total FROM order_messages WHERE order_id = $1', [
        order.id,
      ]),
    ]);
    const attachments = rows.length
      ? await this.orders.attachments.listByMessages(
          this.db,
          rows.map((r) => Number(r.id)),
        )
      : [];
    await this.db.query(
      'UPDATE notifications SET read_at = now() WHERE user_id = $1 AND order_id = $2 AND msg_type = $3 AND read_at IS NULL',
      [auth.userId, order.id, MSG_TYPES.orderMessage],
    );
    return {
      total: counted!.total,
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

  async send(auth: AuthContext, body: { orderCode: string; content: string; attachmentCodes: string[] }) {
    const content = body.content.trim();
    if (!content && body.attachmentCodes.length === 0) fail('MESSAGE_EMPTY', {}, { field: 'content' });
    const { order } = await this.orders.findForCaller(auth, body.orderCode);
    const id = await this.db.transaction(async (tx) => {
      const [m] = await tx.query<{ id: number }>(
        'INSERT INTO order_messages (order_id, sender_user_id, sender_organization_id, content) VALUES ($1, $2, $3, $4) RETURNING id',
        [order.id, auth.userId, auth.organizationId, content],
      );
      const messageId = Number(m!.id);
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
      ...renderNotice(lang, r.event, r, params),
      read: r.read_at !== null,
      createdAt: new Date(r.created_at).toISOString(),
    };
  }

  private async counts(userId: number) {
    const rows = await this.db.query<{ msg_type: number; count: number }>(
      'SELECT msg_type, count(*)::int AS count FROM notifications WHERE user_id = $1 AND read_at IS NULL GROUP BY msg_type ORDER BY msg_type',
      [userId],
    );
    return [MSG_TYPES.orderMessage, MSG_TYPES.workOrder].map((msgType) => ({
      msgType,
      count: rows.find((r) => r.msg_type === msgType)?.count ?? 0,
    }));
  }

  private query(where: string) {
    return `SELECT n.id, n.msg_type, n.event, n.params, n.read_at, n.created_at, o.code, o.tracking_number, c.name AS case_name, co.name AS clinic_name, lo.name AS lab_name
      FROM notifications n JOIN orders o ON o.id = n.order_id JOIN cases c ON c.id = o.case_id
      JOIN organizations co ON co.id = o.clinic_organization_id JOIN organizations lo ON lo.id = o.lab_organization_id
     WHERE n.user_id = $1 ${where}`;
  }

  async listSys(auth: AuthContext, q: { pageNum: number; pageSize: number; msgType?: number; unreadOnly: boolean }) {
    const filter = 'AND ($2::smallint IS NULL OR n.msg_type = $2) AND (NOT $3 OR n.read_at IS NULL)';
    const params = [auth.userId, q.msgType ?? null, q.unreadOnly];
    const [rows, [counted], counts] = await Promise.all([
      this.db.query<NotificationRow>(`${this.query(filter)} ORDER BY n.id DESC LIMIT $4 OFFSET $5`, [
        ...params,
        q.pageSize,
        (q.pageNum - 1) * q.pageSize,
      ]),
      this.db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM notifications n WHERE n.user_id = $1 ${filter}`,
        params,
      ),
      this.counts(auth.userId),
    ]);
    return { total: counted!.total, list: rows.map((r) => this.toSysMsg(r, auth.user.language)), counts };
  }

  /** The header's poll: cheap, from the partial index of unread notifications. */
  async unread(auth: AuthContext) {
    const [counts, [latest]] = await Promise.all([
      this.counts(auth.userId),
      this.db.query<NotificationRow>(`${this.query('AND n.read_at IS NULL')} ORDER BY n.id DESC LIMIT 1`, [
        auth.userId,
      ]),
    ]);
    return {
      total: counts.reduce((sum, c) => sum + c.count, 0),
      counts,
      latest: latest ? this.toSysMsg(latest, auth.user.language) : null,
    };
  }

  async read(auth: AuthContext, body: { ids?: number[]; msgType?: number; orderCode?: string }) {
    await this.db.query(
      `UPDATE notifications n SET read_at = now() WHERE n.user_id = $1 AND n.read_at IS NULL
          AND ($2::bigint[] IS NULL OR n.id = ANY ($2::bigint[])) AND ($3::smallint IS NULL OR n.msg_type = $3)
          AND ($4::text IS NULL OR n.order_id = (SELECT id FROM orders WHERE code = $4))`,
      [auth.userId, body.ids ?? null, body.msgType ?? null, body.orderCode ?? null],
    );
  }
}
