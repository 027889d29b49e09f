import { pageOf, sqlPageAndTotal, type Queryable } from '../../platform/db.js';

export interface NotificationRow {
  id: number;
  msg_type: number;
  event: string;
  params: Record<string, string> | string;
  read_at: Date | null;
  created_at: Date;
  /** The order's code, or the conversation's for a chat notice. */
  code: string;
  subject: 'order' | 'chat';
  case_name: string | null;
  clinic_name: string | null;
  lab_name: string | null;
  tracking_number: string | null;
}

/**
 * A user's notifications ($1) with what their text names: the order, its case and organizations, or the chat
 * conversation of a chat notice; `where` narrows them.
 */
function notifications(where: string) {
  return `SELECT n.id, n.msg_type, n.event, n.params, n.read_at, n.created_at,
                 coalesce(o.code, cv.code) AS code, CASE WHEN n.order_id IS NULL THEN 'chat' ELSE 'order' END AS subject,
                 o.tracking_number, c.name AS case_name, co.name AS clinic_name, lo.name AS lab_name
      FROM notifications n
      LEFT JOIN orders o ON o.id = n.order_id LEFT JOIN cases c ON c.id = o.case_id
      LEFT JOIN organizations co ON co.id = o.clinic_organization_id
      LEFT JOIN organizations lo ON lo.id = o.lab_organization_id
      LEFT JOIN chat_conversations cv ON cv.id = n.conversation_id
     WHERE n.user_id = $1 ${where}`;
}

/** A message type ($2, none for all) and unread only ($3). */
const FILTER = 'AND ($2::smallint IS NULL OR n.msg_type = $2) AND (NOT $3 OR n.read_at IS NULL)';

/** The thread of each order, and each user's notifications. */
export const messagesRepository = {
  /** A page of an order's messages, newest first, with who sent them, and how many there are. */
  async thread(db: Queryable, orderId: number, limit: number, offset: number) {
    const rows = await db.query<{
      id: number;
      content: string;
      sender: string | null;
      org: string;
      sender_organization_id: number;
      created_at: Date;
      total: number;
    }>(
      sqlPageAndTotal(
        'FROM order_messages WHERE order_id = $1',
        `SELECT m.id, m.content, u.display_name AS sender, og.name AS org, m.sender_organization_id, m.created_at
           FROM order_messages m
           LEFT JOIN users u ON u.id = m.sender_user_id
           JOIN organizations og ON og.id = m.sender_organization_id
          WHERE m.order_id = $1
          ORDER BY m.id DESC
          LIMIT $2 OFFSET $3`,
      ),
      [orderId, limit, offset],
    );
    return pageOf(rows);
  },
  async insert(db: Queryable, m: { orderId: number; userId: number; orgId: number; content: string }) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO order_messages (order_id, sender_user_id, sender_organization_id, content)
       VALUES ($1, $2, $3, $4)
       RETURNING id`,
      [m.orderId, m.userId, m.orgId, m.content],
    );
    return Number(row!.id);
  },
  /** The user's unread notifications per message type (types without any are absent). */
  async unreadCounts(db: Queryable, userId: number) {
    return db.query<{ msg_type: number; count: number }>(
      `SELECT msg_type, count(*)::int AS count
         FROM notifications
        WHERE user_id = $1 AND read_at IS NULL
        GROUP BY msg_type
        ORDER BY msg_type`,
      [userId],
    );
  },
  /** A page of the user's notifications, newest first, and how many pass the filter. */
  async page(
    db: Queryable,
    userId: number,
    filter: { msgType: number | null; unreadOnly: boolean },
    limit: number,
    offset: number,
  ) {
    const rows = await db.query<NotificationRow & { total: number }>(
      sqlPageAndTotal(
        `FROM notifications n WHERE n.user_id = $1 ${FILTER}`,
        `${notifications(FILTER)} ORDER BY n.id DESC LIMIT $4 OFFSET $5`,
      ),
      [userId, filter.msgType, filter.unreadOnly, limit, offset],
    );
    return pageOf(rows);
  },
  /** The user's newest unread notification, from the partial index of unread notifications. */
  async latestUnread(db: Queryable, userId: number) {
    const [row] = await db.query<NotificationRow>(
      `${notifications('AND n.read_at IS NULL')} ORDER BY n.id DESC LIMIT 1`,
      [userId],
    );
    return row;
  },
};
