import { MSG_TYPES } from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../../platform/db.js';
import type { Mailer, MailMessage, StoredMail } from '../../platform/mail.js';
import { OutboxSmsSender, type SmsSender } from '../../platform/sms.js';
import { t } from '../../platform/i18n.js';
import { noticesRepository, type NoticeMailRow, type NoticeOrder } from './orders.repository.js';
import { EventsService, type NewEvent } from '../events/events.service.js';

/** What a notification or mail is about; the text comes from the `notice` namespace in the reader's language. */
export type OrderNotice =
  | 'partnershipEnded'
  | 'create'
  | 'remake'
  | 'accept'
  | 'startProcessing'
  | 'ready'
  | 'ship'
  | 'reject'
  | 'cancel'
  | 'complete'
  | 'message';

/** Mails list at most this many orders; a batch of 500 shipped orders is one mail per recipient, not 500. */
const MAIL_LIST_MAX = 20;

/** The words of a notice about one order, in a language. */
export function renderNotice(
  lang: string,
  event: string,
  o: { [K in keyof NoticeOrder]: NoticeOrder[K] | null },
  params: Record<string, string>,
) {
  const p = {
    order: o.code ?? '',
    case: o.case_name ?? '',
    clinic: o.clinic_name ?? '',
    lab: o.lab_name ?? '',
    tracking: o.tracking_number ?? '',
    ...params,
  };
  return { title: t(lang, `notice:${event}.title`, p), content: t(lang, `notice:${event}.content`, p) };
}

/**
 * Tells the other side of an order what happened: a notification per active user (message types 2 and 5), one
 * mail per user who receives mails and per verified contact of the organization, in their language, listing the
 * orders of a batch together, and a text message to users who chose SMS. All are made from rows written in the
 * changing transaction: a notification or contact notice due a mail carries its batch until the mail is in the
 * outbox, so a crash between the change and the mail delays the mail (`mailLeftBehind`) instead of losing it.
 */
export class OrderNotifier {
  /** A station letter about a chat conversation's unread messages, written in the caller's transaction. */
  static chatLetter(tx: Queryable, userId: number, conversationId: number, params: Record<string, string | number>) {
    return noticesRepository.insertChatLetter(tx, userId, conversationId, params);
  }

  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly log: FastifyBaseLogger,
    private readonly sms: SmsSender = new OutboxSmsSender(),
  ) {}

  /**
   * Writes the notifications for the other side of each order (the actor's organization is `actorOrgId`), in the
   * caller's transaction. With `mailBatch`, those of users who receive mails wait for `mailBatch()` to mail them.
   */
  async record(
    db: Queryable,
    orderIds: number[],
    event: OrderNotice,
    actorOrgId: number,
    params: Record<string, string> = {},
    mailBatch: string | null = null,
  ) {
    if (orderIds.length === 0) return;
    await this.live(db, orderIds, event, actorOrgId);
    await noticesRepository.insertNotifications(db, {
      orderIds,
      msgType: event === 'message' ? MSG_TYPES.orderMessage : MSG_TYPES.workOrder,
      event,
      params,
      actorOrgId,
      mailBatch,
    });
    if (mailBatch) {
      await noticesRepository.insertContactNotices(db, { orderIds, event, params, actorOrgId, mailBatch });
    }
    await this.textMessages(db, orderIds, event, actorOrgId, params);
  }

  /**
   * The live events of the change, for both sides' open screens: each order's code and status (never its patient),
   * and that the other side has a new notification (its bell refetches its count).
   */
  private async live(db: Queryable, orderIds: number[], event: OrderNotice, actorOrgId: number) {
    const orders = await noticesRepository.liveOrders(db, orderIds);
    const kind = event === 'message' ? 'order.message' : 'order.changed';
    const events: NewEvent[] = [];
    const told = new Set<number>();
    for (const o of orders) {
      for (const org of [Number(o.clinic_organization_id), Number(o.lab_organization_id)]) {
        events.push({
          organizationId: org,
          permission: 'order:view',
          kind,
          subject: o.code,
          data: { status: o.status, event, byOtherSide: org !== actorOrgId },
        });
        if (org !== actorOrgId && !told.has(org)) {
          told.add(org);
          events.push({ organizationId: org, kind: 'notification', data: { event } });
        }
      }
    }
    await EventsService.record(db, events);
  }

  /** One text message per user of the other side who chose SMS and has a phone number, for the orders together. */
  private async textMessages(
    db: Queryable,
    orderIds: number[],
    event: OrderNotice,
    actorOrgId: number,
    params: Record<string, string>,
  ) {
    const rows = await noticesRepository.textRecipients(db, orderIds, actorOrgId);
    const byUser = groupBy(rows, (r) => r.user_id);
    for (const orders of byUser.values()) {
      const first = orders[0]!;
      const notice = renderNotice(first.language, event, first, params);
      const text =
        orders.length === 1
          ? `${notice.title}: ${notice.content}`
          : t(first.language, 'mail:orderEvent.batchSubject', { count: orders.length, title: notice.title });
      await this.sms.store(db, { to: first.phone, language: first.language, text });
    }
  }

  /** The user read an order's thread: their unread notifications of that type about the order are read. */
  markOrderRead(userId: number, orderId: number, msgType: number) {
    return noticesRepository.markOrderRead(this.db, userId, orderId, msgType);
  }

  /** Marks the user's unread notifications read: those given by id, of a type, of an order, or all. */
  markRead(userId: number, which: { ids: number[] | null; msgType: number | null; orderCode: string | null }) {
    return noticesRepository.markRead(this.db, userId, which);
  }

  /** Mails a batch's notifications after its changes committed; never fails the caller. */
  mailBatch(batch: string) {
    return this.sendBatch(batch).catch((err: unknown) => this.log.error({ err, batch }, 'order mail failed'));
  }

  /** Mails the batches a crash or a failure left behind (run every minute by the server process). */
  async mailLeftBehind(olderThanSeconds = 60): Promise<number> {
    const batches = await noticesRepository.batchesLeftBehind(this.db, olderThanSeconds);
    for (const b of batches) await this.sendBatch(b.mail_batch);
    return batches.length;
  }

  private async sendBatch(batch: string) {
    const stored = await this.db.transaction(async (tx) => {
      // SKIP LOCKED: a batch being mailed by this or another process is left to it.
      const rows = await noticesRepository.lockBatchNotifications(tx, batch);
      const contactRows = await noticesRepository.lockBatchContactNotices(tx, batch);
      const mails: StoredMail[] = [];
      for (const orders of groupBy(rows, (r) => r.user_id).values())
        mails.push(await this.mailer.store(tx, this.mailFor(orders, 'orderEvent.settings')));
      for (const orders of groupBy(contactRows, (r) => r.contact_id).values()) {
        const organization = orders[0]!.organization_name;
        mails.push(await this.mailer.store(tx, this.mailFor(orders, 'orderEvent.contactSettings', { organization })));
      }
      if (rows.length > 0)
        await noticesRepository.clearMailBatch(
          tx,
          rows.map((r) => r.id),
        );
      if (contactRows.length > 0)
        await noticesRepository.deleteContactNotices(
          tx,
          contactRows.map((r) => r.id),
        );
      return mails;
    });
    await this.mailer.deliverStored(stored);
  }

  /** One recipient's mail about the orders of a batch, ending with why they receive it (`settingsKey`). */
  private mailFor(
    orders: NoticeMailRow[],
    settingsKey: string,
    settingsParams: Record<string, string> = {},
  ): MailMessage {
    const first = orders[0]!;
    const lang = first.language;
    const params =
      typeof first.params === 'string' ? (JSON.parse(first.params) as Record<string, string>) : first.params;
    const single = renderNotice(lang, first.event, first, params);
    // The laboratory never reads the patient's name unless the clinic shares it.
    const line = (o: (typeof orders)[number]) =>
      `• ${o.code} – ${o.case_name}${!o.recipient_is_lab || o.share_patient_name ? ` (${o.patient_name})` : ''}`;
    const lines =
      orders.length === 1
        ? [single.content]
        : [
            t(lang, 'mail:orderEvent.batch', { count: orders.length, title: single.title }),
            '',
            ...orders.slice(0, MAIL_LIST_MAX).map(line),
            ...(orders.length > MAIL_LIST_MAX
              ? [t(lang, 'mail:orderEvent.more', { count: orders.length - MAIL_LIST_MAX })]
              : []),
          ];
    return {
      to: first.email,
      language: lang,
      recipientName: first.display_name,
      template: 'orderEvent',
      params: {
        ...settingsParams,
        title:
          orders.length === 1
            ? single.title
            : t(lang, 'mail:orderEvent.batchSubject', { count: orders.length, title: single.title }),
      },
      lines,
      extraKeys: [settingsKey],
      link:
        orders.length === 1
          ? `${this.publicUrl}/order-management/detail/${first.code}`
          : `${this.publicUrl}/order-management`,
    };
  }
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const r of rows) {
    const list = groups.get(key(r));
    if (list) list.push(r);
    else groups.set(key(r), [r]);
  }
  return groups;
}
