import { PERMISSION_WILDCARD } from '@portal/contracts';
import type { Queryable } from '../../platform/db.js';

export interface ConversationRow {
  id: number;
  code: string;
  kind: 'partner' | 'support';
  first_organization_id: number;
  second_organization_id: number;
  title: string;
  read_only: boolean;
  unread: number;
  other_read: number;
  last_message_at: Date | null;
}

export interface MessageRow {
  id: number;
  client_id: string;
  body: string;
  refs: Array<{ kind: 'case' | 'order'; code: string }> | string;
  sender: string | null;
  org: string;
  sender_organization_id: number;
  created_at: Date;
}

export interface ChatAttachmentRow {
  id: number;
  code: string;
  message_id: number | null;
  organization_id: number;
  name: string;
  format: string;
  size: string;
  storage_key: string;
  created_at: Date;
  organization_name: string;
}

/**
 * The caller's conversations ($1 organization, $2 user) with the other organization's name, whether the partnership
 * still stands, the user's unread count and how far the other organization has read. The operator sees support
 * conversations once they hold a message.
 */
const CONVERSATIONS = `
  SELECT c.id, c.code, c.kind, c.first_organization_id, c.second_organization_id, c.last_message_at, o.name AS title,
         (c.kind = 'partner' AND p.status <> 1) AS read_only,
         (SELECT count(*)::int FROM chat_messages m
           WHERE m.conversation_id = c.id AND m.sender_organization_id <> $1
             AND m.id > coalesce(r.last_read_message_id, 0)) AS unread,
         coalesce((SELECT max(r2.last_read_message_id) FROM chat_reads r2 JOIN users u2 ON u2.id = r2.user_id
                    WHERE r2.conversation_id = c.id AND u2.organization_id <> $1), 0)::int8 AS other_read
    FROM chat_conversations c
    JOIN organizations o
      ON o.id = CASE WHEN c.first_organization_id = $1 THEN c.second_organization_id ELSE c.first_organization_id END
    LEFT JOIN partnerships p ON p.id = c.partnership_id
    LEFT JOIN chat_reads r ON r.conversation_id = c.id AND r.user_id = $2
   WHERE (c.first_organization_id = $1
          OR (c.second_organization_id = $1 AND (c.kind = 'partner' OR c.last_message_at IS NOT NULL)))`;

const MESSAGES = `
  SELECT m.id, m.client_id, m.body, m.refs, u.display_name AS sender, og.name AS org, m.sender_organization_id,
         m.created_at
    FROM chat_messages m
    LEFT JOIN users u ON u.id = m.sender_user_id
    JOIN organizations og ON og.id = m.sender_organization_id`;

const ATTACHMENTS = `SELECT a.*, og.name AS organization_name
  FROM chat_attachments a JOIN organizations og ON og.id = a.organization_id`;

/** Chat conversations, messages, attachments and read marks. */
export const chatRepository = {
  /** The operator of the organization's site: the platform organization of its region, else the first one. */
  async operatorFor(db: Queryable, region: string) {
    const [row] = await db.query<{ id: number }>(
      `SELECT id FROM organizations WHERE type = 1 AND status = 1 ORDER BY (region = $1) DESC, id LIMIT 1`,
      [region],
    );
    return row ? Number(row.id) : null;
  },
  /** Makes the conversation of each accepted partnership of the organization, and its support conversation. */
  async ensure(db: Queryable, orgId: number, operatorId: number | null) {
    await db.query(
      `INSERT INTO chat_conversations (code, kind, partnership_id, first_organization_id, second_organization_id)
       SELECT 'cv' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16), 'partner', p.id,
              p.clinic_organization_id, p.lab_organization_id
         FROM partnerships p
        WHERE p.status = 1 AND p.lab_organization_id IS NOT NULL
          AND (p.clinic_organization_id = $1 OR p.lab_organization_id = $1)
       ON CONFLICT DO NOTHING`,
      [orgId],
    );
    if (operatorId !== null && operatorId !== orgId)
      await db.query(
        `INSERT INTO chat_conversations (code, kind, first_organization_id, second_organization_id)
         VALUES ('cv' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16), 'support', $1, $2)
         ON CONFLICT DO NOTHING`,
        [orgId, operatorId],
      );
  },
  async list(db: Queryable, orgId: number, userId: number) {
    return db.query<ConversationRow>(`${CONVERSATIONS} ORDER BY c.last_message_at DESC NULLS LAST, c.id`, [
      orgId,
      userId,
    ]);
  },
  /** One of the caller's conversations, by code. */
  async find(db: Queryable, orgId: number, userId: number, code: string) {
    const [row] = await db.query<ConversationRow>(`${CONVERSATIONS} AND c.code = $3`, [orgId, userId, code]);
    return row;
  },
  /** Whether the conversation may still take messages, read again inside the sending transaction. */
  async stillOpen(tx: Queryable, conversationId: number) {
    const [row] = await tx.query<{ open: boolean }>(
      `SELECT (c.kind = 'support' OR p.status = 1) AS open
         FROM chat_conversations c LEFT JOIN partnerships p ON p.id = c.partnership_id
        WHERE c.id = $1`,
      [conversationId],
    );
    return row?.open === true;
  },
  /** Newest first when `before` or neither is given, oldest first after `after`; one more than asked tells of more. */
  async page(db: Queryable, conversationId: number, q: { before?: number; after?: number; limit: number }) {
    if (q.after !== undefined)
      return db.query<MessageRow>(`${MESSAGES} WHERE m.conversation_id = $1 AND m.id > $2 ORDER BY m.id LIMIT $3`, [
        conversationId,
        q.after,
        q.limit + 1,
      ]);
    return db.query<MessageRow>(
      `${MESSAGES} WHERE m.conversation_id = $1 AND ($2::int8 IS NULL OR m.id < $2) ORDER BY m.id DESC LIMIT $3`,
      [conversationId, q.before ?? null, q.limit + 1],
    );
  },
  async byIds(db: Queryable, ids: number[]) {
    return db.query<MessageRow>(`${MESSAGES} WHERE m.id = ANY ($1::int8[]) ORDER BY m.id`, [ids]);
  },
  /** Newest first; `pattern` is an ILIKE pattern (a trigram index serves it where pg_trgm exists). */
  async search(db: Queryable, conversationId: number, pattern: string, limit: number) {
    return db.query<MessageRow>(
      `${MESSAGES} WHERE m.conversation_id = $1 AND m.body ILIKE $2 ESCAPE '\\' ORDER BY m.id DESC LIMIT $3`,
      [conversationId, pattern, limit],
    );
  },
  /** Oldest first, for the export. */
  async all(db: Queryable, conversationId: number, limit: number) {
    return db.query<MessageRow>(`${MESSAGES} WHERE m.conversation_id = $1 ORDER BY m.id LIMIT $2`, [
      conversationId,
      limit,
    ]);
  },
  /** Answers the new message's id, or undefined when the sender already sent this client id here. */
  async insert(
    tx: Queryable,
    m: { conversationId: number; clientId: string; userId: number; orgId: number; body: string; refs: unknown[] },
  ) {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO chat_messages (conversation_id, client_id, sender_user_id, sender_organization_id, body, refs)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb)
       ON CONFLICT (conversation_id, sender_organization_id, client_id) DO NOTHING
       RETURNING id`,
      [m.conversationId, m.clientId, m.userId, m.orgId, m.body, JSON.stringify(m.refs)],
    );
    if (!row) return undefined;
    await tx.query('UPDATE chat_conversations SET last_message_at = now() WHERE id = $1', [m.conversationId]);
    return Number(row.id);
  },
  async byClientId(db: Queryable, conversationId: number, orgId: number, clientId: string) {
    const [row] = await db.query<{ id: number }>(
      `SELECT id FROM chat_messages WHERE conversation_id = $1 AND sender_organization_id = $2 AND client_id = $3`,
      [conversationId, orgId, clientId],
    );
    return row ? Number(row.id) : undefined;
  },
  /** Of the codes, those the sender may link: its own cases and orders, and those between the two organizations. */
  async linkable(db: Queryable, senderOrgId: number, otherOrgId: number, cases: string[], orders: string[]) {
    const found = await db.query<{ kind: string; code: string }>(
      `SELECT 'case' AS kind, c.code FROM cases c
        WHERE c.code = ANY ($1::text[]) AND c.deleted_at IS NULL
          AND (c.organization_id = $3
               OR EXISTS (SELECT 1 FROM orders o WHERE o.case_id = c.id AND o.lab_organization_id = $3
                             AND o.clinic_organization_id = $4))
       UNION ALL
       SELECT 'order', o.code FROM orders o
        WHERE o.code = ANY ($2::text[])
          AND (o.clinic_organization_id = $3 OR o.lab_organization_id = $3)`,
      [cases, orders, senderOrgId, otherOrgId],
    );
    return new Set(found.map((r) => `${r.kind}:${r.code}`));
  },
  /** Moves the user's read mark forward, never past the conversation's newest message; answers the mark. */
  async markRead(db: Queryable, conversationId: number, userId: number, upTo: number) {
    const [row] = await db.query<{ mark: number }>(
      `INSERT INTO chat_reads (conversation_id, user_id, last_read_message_id)
       SELECT $1, $2, LEAST($3::int8, coalesce(max(id), 0)) FROM chat_messages WHERE conversation_id = $1
       ON CONFLICT (conversation_id, user_id) DO UPDATE
         SET last_read_message_id = GREATEST(chat_reads.last_read_message_id, EXCLUDED.last_read_message_id),
             read_at = now()
       RETURNING last_read_message_id AS mark`,
      [conversationId, userId, upTo],
    );
    return Number(row!.mark);
  },
  async insertAttachment(
    tx: Queryable,
    a: {
      code: string;
      conversationId: number;
      orgId: number;
      userId: number;
      name: string;
      format: string;
      size: number;
      storageKey: string;
    },
  ) {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO chat_attachments (code, conversation_id, organization_id, user_id, name, format, size, storage_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       RETURNING id`,
      [a.code, a.conversationId, a.orgId, a.userId, a.name, a.format, a.size, a.storageKey],
    );
    return Number(row!.id);
  },
  /** Binds the sender's unbound attachments of the conversation to the message; answers how many it bound. */
  async bindAttachments(tx: Queryable, conversationId: number, orgId: number, codes: string[], messageId: number) {
    const rows = await tx.query(
      `UPDATE chat_attachments SET message_id = $4
        WHERE conversation_id = $1 AND organization_id = $2 AND code = ANY ($3::text[]) AND message_id IS NULL
        RETURNING id`,
      [conversationId, orgId, codes, messageId],
    );
    return rows.length;
  },
  async attachmentsOf(db: Queryable, messageIds: number[]) {
    return db.query<ChatAttachmentRow>(`${ATTACHMENTS} WHERE a.message_id = ANY ($1::int8[]) ORDER BY a.id`, [
      messageIds,
    ]);
  },
  async attachmentsByIds(db: Queryable, ids: number[]) {
    return db.query<ChatAttachmentRow>(`${ATTACHMENTS} WHERE a.id = ANY ($1::int8[]) ORDER BY a.id`, [ids]);
  },
  /** An attachment of a conversation the organization is part of. */
  async attachmentForParty(db: Queryable, orgId: number, code: string) {
    const [row] = await db.query<ChatAttachmentRow>(
      `${ATTACHMENTS} JOIN chat_conversations c ON c.id = a.conversation_id
        WHERE a.code = $2 AND (c.first_organization_id = $1 OR c.second_organization_id = $1)`,
      [orgId, code],
    );
    return row;
  },

  /**
   * Who should now be told of unread messages: per member holding `chat:view` (`$4`, or the wildcard `$5`) of an
   * organization in the conversation, the other side's messages after their read mark and after what they were last
   * told of, the oldest of them older than the quiet period (`$1` seconds); not while they are online (a heartbeat
   * newer than `$2` seconds). At most `$3` rows. Both periods end at `now` (the database's clock when not given).
   */
  async noticesDue(db: Queryable, quietSeconds: number, onlineSeconds: number, limit: number, now?: Date) {
    return db.query<{
      conversation_id: number;
      code: string;
      user_id: number;
      organization_id: number;
      language: string;
      phone: string | null;
      receive: 'station' | 'sms';
      other_name: string;
      unread: number;
      newest: number;
    }>(
      `SELECT c.id AS conversation_id, c.code, u.id AS user_id, u.organization_id, u.language, u.phone, u.msg_receive_type AS receive,
              other.name AS other_name, count(*)::int AS unread, max(m.id)::int8 AS newest
         FROM chat_conversations c
         JOIN users u ON u.organization_id IN (c.first_organization_id, c.second_organization_id)
         JOIN organizations own ON own.id = u.organization_id AND own.status = 1
         JOIN organizations other
           ON other.id = CASE WHEN u.organization_id = c.first_organization_id
                              THEN c.second_organization_id ELSE c.first_organization_id END
         JOIN chat_messages m ON m.conversation_id = c.id AND m.sender_organization_id = other.id
         LEFT JOIN chat_reads r ON r.conversation_id = c.id AND r.user_id = u.id
        WHERE u.status = 1
          AND m.id > greatest(coalesce(r.last_read_message_id, 0), coalesce(r.noticed_message_id, 0))
          AND NOT EXISTS (SELECT 1 FROM live_presence lp
                           WHERE lp.user_id = u.id AND lp.seen_at > coalesce($6::timestamptz, now()) - make_interval(secs => $2))
          AND EXISTS (SELECT 1 FROM role_menus rm JOIN menus mn ON mn.id = rm.menu_id
                       WHERE rm.role_id = u.role_id AND ($4 = ANY (mn.api_permissions) OR $5 = ANY (mn.api_permissions)))
        GROUP BY c.id, c.code, u.id, u.organization_id, u.language, u.phone, u.msg_receive_type, other.name
       HAVING min(m.created_at) < coalesce($6::timestamptz, now()) - make_interval(secs => $1)
        ORDER BY c.id, u.id
        LIMIT $3`,
      [quietSeconds, onlineSeconds, limit, 'chat:view', PERMISSION_WILDCARD, now?.toISOString() ?? null],
    );
  },
  /**
   * Records that the user was told of the messages up to `newest`, unless another process did first: answers
   * whether this call did (the notice is then theirs to send, in the same transaction).
   */
  async claimNotice(tx: Queryable, conversationId: number, userId: number, newest: number) {
    const rows = await tx.query(
      `INSERT INTO chat_reads (conversation_id, user_id, last_read_message_id, noticed_message_id, read_at)
       VALUES ($1, $2, 0, $3, now())
       ON CONFLICT (conversation_id, user_id) DO UPDATE SET noticed_message_id = $3
        WHERE coalesce(chat_reads.noticed_message_id, 0) < $3
       RETURNING 1`,
      [conversationId, userId, newest],
    );
    return rows.length > 0;
  },
};
