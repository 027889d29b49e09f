import {
  CHAT_LIMITS,
  type ChatConversation,
  type ChatMessage,
  type ChatMessagesBody,
  type ChatReadBody,
  type ChatRef,
  type ChatSearchBody,
  type ChatSendBody,
  type OrderAttachment,
} from '@portal/contracts';
import type { AuthContext } from '../../platform/auth.js';
import type { Db } from '../../platform/db.js';
import { fail } from '../../platform/errors.js';
import type { BlobStore } from '../../platform/storage.js';
import { t } from '../../platform/i18n.js';
import { EventsService } from '../events/events.service.js';
import type { AttachmentBatch } from '../orders/order-attachments.js';
import { csvFile } from '../../platform/csv.js';
import { chatRepository, type ChatAttachmentRow, type ConversationRow, type MessageRow } from './chat.repository.js';

/** Events a socket hears: a new message, and a read mark that moved (read receipts, unread counts). */
export const CHAT_EVENTS = { message: 'chat.message', read: 'chat.read' } as const;

/** An ILIKE pattern that finds the text anywhere, its own % _ and \ taken literally. */
export function containsPattern(text: string) {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function toAttachment(r: ChatAttachmentRow, viewerOrgId: number): OrderAttachment {
  return {
    code: r.code,
    name: r.name,
    format: r.format,
    size: Number(r.size),
    organizationName: r.organization_name,
    mine: Number(r.organization_id) === viewerOrgId,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/**
 * Chat between partner organizations and with the site's operator (docs/product-decisions.md, "Chat"). Every query
 * goes through the caller's conversations: a conversation of other organizations is not found.
 */
export class ChatService {
  constructor(
    private readonly db: Db,
    private readonly store: BlobStore,
    private readonly batchFor: (orgId: number, userId: number) => AttachmentBatch,
  ) {}

  private conversation(r: ConversationRow): ChatConversation {
    return {
      code: r.code,
      kind: r.kind,
      title: r.title,
      readOnly: r.read_only === true,
      unread: Number(r.unread),
      lastMessageAt: r.last_message_at ? new Date(r.last_message_at).toISOString() : null,
      otherReadUpTo: Number(r.other_read),
    };
  }

  async conversations(auth: AuthContext) {
    const operator = await chatRepository.operatorFor(this.db, auth.user.org_region);
    await chatRepository.ensure(this.db, auth.organizationId, operator);
    const list = (await chatRepository.list(this.db, auth.organizationId, auth.userId)).map((r) =>
      this.conversation(r),
    );
    return { list, unread: list.reduce((sum, c) => sum + c.unread, 0) };
  }

  /** One of the caller's conversations; any other is not found. */
  async find(auth: AuthContext, code: string) {
    const row = await chatRepository.find(this.db, auth.organizationId, auth.userId, code);
    if (!row) fail('NOT_FOUND', {}, { field: 'conversationCode' });
    return row;
  }

  /** The organizations a conversation's events go to. */
  private static parties(c: ConversationRow) {
    return [Number(c.first_organization_id), Number(c.second_organization_id)];
  }

  private async messages(rows: MessageRow[], viewerOrgId: number): Promise<ChatMessage[]> {
    const ids = rows.map((r) => Number(r.id));
    const attachments = ids.length ? await chatRepository.attachmentsOf(this.db, ids) : [];
    return rows.map((m) => ({
      id: Number(m.id),
      clientId: m.client_id,
      body: m.body,
      refs: (typeof m.refs === 'string' ? JSON.parse(m.refs) : m.refs) as ChatRef[],
      attachments: attachments
        .filter((a) => Number(a.message_id) === Number(m.id))
        .map((a) => toAttachment(a, viewerOrgId)),
      senderName: m.sender ?? '',
      senderOrganization: m.org,
      mine: Number(m.sender_organization_id) === viewerOrgId,
      createdAt: new Date(m.created_at).toISOString(),
    }));
  }

  async page(auth: AuthContext, q: ChatMessagesBody) {
    if (q.before !== undefined && q.after !== undefined) fail('PARAM_INVALID', { field: 'after' }, { field: 'after' });
    const c = await this.find(auth, q.conversationCode);
    const rows = await chatRepository.page(this.db, Number(c.id), q);
    const hasMore = rows.length > q.limit;
    const kept = rows.slice(0, q.limit);
    if (q.after === undefined) kept.reverse();
    return { list: await this.messages(kept, auth.organizationId), hasMore };
  }

  async send(auth: AuthContext, body: ChatSendBody): Promise<ChatMessage> {
    const text = body.body.trim();
    if (!text && body.attachmentCodes.length === 0 && body.refs.length === 0)
      fail('MESSAGE_EMPTY', {}, { field: 'body' });
    const c = await this.find(auth, body.conversationCode);
    if (c.read_only) fail('CHAT_READ_ONLY', {}, { field: 'conversationCode' });
    const conversationId = Number(c.id);
    // A resend of a message already stored answers that message and changes nothing.
    const earlier = await chatRepository.byClientId(this.db, conversationId, auth.organizationId, body.clientId);
    if (earlier !== undefined) return this.one(earlier, auth.organizationId);
    const refs = await this.checkRefs(auth.organizationId, c, body.refs);
    const id = await this.db.transaction(async (tx) => {
      if (!(await chatRepository.stillOpen(tx, conversationId)))
        fail('CHAT_READ_ONLY', {}, { field: 'conversationCode' });
      const messageId = await chatRepository.insert(tx, {
        conversationId,
        clientId: body.clientId,
        userId: auth.userId,
        orgId: auth.organizationId,
        body: text,
        refs,
      });
      // Sent at the same moment by another tab: that one was stored.
      if (messageId === undefined) return undefined;
      const codes = [...new Set(body.attachmentCodes)];
      if (codes.length) {
        const bound = await chatRepository.bindAttachments(tx, conversationId, auth.organizationId, codes, messageId);
        if (bound !== codes.length) fail('NOT_FOUND', {}, { field: 'attachmentCodes' });
      }
      await EventsService.record(
        tx,
        ChatService.parties(c).map((organizationId) => ({
          organizationId,
          permission: 'chat:view',
          kind: CHAT_EVENTS.message,
          subject: c.code,
          data: { conversationCode: c.code, messageId, fromOrganization: auth.user.org_code },
        })),
      );
      return messageId;
    });
    const stored = id ?? (await chatRepository.byClientId(this.db, conversationId, auth.organizationId, body.clientId));
    return this.one(stored!, auth.organizationId);
  }

  private async one(id: number, viewerOrgId: number) {
    const [message] = await this.messages(await chatRepository.byIds(this.db, [id]), viewerOrgId);
    return message!;
  }

  /** Links only to cases and orders the sender may see and that concern this conversation's organizations. */
  private async checkRefs(orgId: number, c: ConversationRow, refs: ChatRef[]) {
    if (!refs.length) return [];
    const other = ChatService.parties(c).find((o) => o !== orgId)!;
    const unique = [...new Map(refs.map((r) => [`${r.kind}:${r.code}`, r])).values()];
    const found = await chatRepository.linkable(
      this.db,
      orgId,
      other,
      unique.filter((r) => r.kind === 'case').map((r) => r.code),
      unique.filter((r) => r.kind === 'order').map((r) => r.code),
    );
    const missing = unique.findIndex((r) => !found.has(`${r.kind}:${r.code}`));
    if (missing >= 0) fail('NOT_FOUND', {}, { field: `refs.${missing}` });
    return unique;
  }

  async read(auth: AuthContext, body: ChatReadBody) {
    const c = await this.find(auth, body.conversationCode);
    const upTo = await this.db.transaction(async (tx) => {
      const mark = await chatRepository.markRead(tx, Number(c.id), auth.userId, body.upTo);
      await EventsService.record(
        tx,
        ChatService.parties(c).map((organizationId) => ({
          organizationId,
          permission: 'chat:view',
          kind: CHAT_EVENTS.read,
          subject: c.code,
          data: { conversationCode: c.code, upTo: mark, byOrganization: auth.user.org_code, byUser: auth.userCode },
        })),
      );
      return mark;
    });
    return { upTo };
  }

  async search(auth: AuthContext, q: ChatSearchBody) {
    const c = await this.find(auth, q.conversationCode);
    const rows = await chatRepository.search(this.db, Number(c.id), containsPattern(q.q), q.limit);
    return { list: await this.messages(rows, auth.organizationId), hasMore: false };
  }

  /** The conversation as CSV, every cell safe from spreadsheet formulas. */
  async exportCsv(auth: AuthContext, code: string) {
    const c = await this.find(auth, code);
    const rows = await chatRepository.all(this.db, Number(c.id), CHAT_LIMITS.exportMax);
    const lang = auth.user.language;
    const header = ['time', 'organization', 'sender', 'message', 'links'].map((k) => t(lang, `chat:export.${k}`));
    const body = csvFile([
      header,
      ...rows.map((m) => [
        new Date(m.created_at).toISOString(),
        m.org,
        m.sender ?? '',
        m.body,
        ((typeof m.refs === 'string' ? JSON.parse(m.refs) : m.refs) as ChatRef[])
          .map((r) => `${r.kind}:${r.code}`)
          .join(' '),
      ]),
    ]);
    return { name: `${t(lang, 'chat:export.fileName')}-${c.title}.csv`, body };
  }

  /** Files for a message to come: checked and charged like order attachments, kept only when all pass. */
  async attach(auth: AuthContext, code: string, files: (batch: AttachmentBatch) => Promise<void>) {
    const c = await this.find(auth, code);
    if (c.read_only) fail('CHAT_READ_ONLY', {}, { field: 'conversationCode' });
    const batch = this.batchFor(auth.organizationId, auth.userId);
    try {
      await files(batch);
      if (batch.count === 0) fail('PARAM_INVALID', { field: 'file' }, { field: 'file' });
      const rows = await this.db.transaction(async (tx) => {
        const ids = await batch.writeRows(tx, (f) =>
          chatRepository.insertAttachment(tx, {
            code: f.code,
            conversationId: Number(c.id),
            orgId: auth.organizationId,
            userId: auth.userId,
            name: f.name,
            format: f.format,
            size: f.size,
            storageKey: f.key,
          }),
        );
        return chatRepository.attachmentsByIds(tx, ids);
      });
      return { list: rows.map((r) => toAttachment(r, auth.organizationId)) };
    } catch (err) {
      await batch.discard();
      throw err;
    }
  }

  /** An attachment of one of the caller's conversations. */
  async openAttachment(auth: AuthContext, code: string) {
    const row = await chatRepository.attachmentForParty(this.db, auth.organizationId, code);
    if (!row) fail('NOT_FOUND', {}, { field: 'attachmentCode' });
    return {
      name: row.name,
      format: row.format,
      size: Number(row.size),
      stream: await this.store.read(row.storage_key),
    };
  }

  /** A typing mark's target: the conversation's other organization, if the caller is part of it. */
  async typingTarget(auth: AuthContext, code: string) {
    const c = await this.find(auth, code);
    if (c.read_only) return undefined;
    return ChatService.parties(c).find((o) => o !== auth.organizationId);
  }
}
