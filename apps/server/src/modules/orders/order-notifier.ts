import { MSG_TYPES } from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../../platform/db.js';
import type { Mailer, MailMessage, StoredMail } from '../../platform/mail.js';
import { OutboxSmsSender, type SmsSender } from '../../platform/sms.js';
import { t } from '../../platform/i18n.js';

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

interface NoticeOrder {
  code: string;
  case_name: string;
  clinic_name: string;
  lab_name: string;
  tracking_number: string | null;
}

/** The words of a notice about one order, in a language. */
export function renderNotice(lang: string, event: string, o: NoticeOrder, params: Record<string, string>) {
  const p = {
    order: o.code,
    case: o.case_name,
    clinic: o.clinic_name,
    lab: o.lab_name,
    tracking: o.tracking_number ?? '',
    ...params,
  };
  return { title: t(lang, `notice:${event}.title`, p), content: t(lang, `notice:${event}.content`, p) };
}

/** One recipient's rows of a batch, as the mail about them needs them. */
type MailRow = NoticeOrder & {
  event: OrderNotice;
  params: Record<string, string> | string;
  email: string;
  display_name: string;
  language: string;
  recipient_is_lab: boolean;
  share_patient_name: boolean;
  patient_name: string;
};

/**
 * Tells the other side of an order what happened: a notification per active user (message types 2 and 5), one
 * mail per user who receives mails and per verified contact of the organization, in their language, listing the
 * orders of a batch together, and a text message to users who chose SMS. All are made from rows written in the
 * changing transaction: a notification or contact notice due a mail carries its batch until the mail is in the
 * outbox, so a crash between the change and the mail delays the mail (`mailLeftBehind`) instead of losing it.
 */
export class OrderNotifier {
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
    await db.query(
      `INSERT INTO notifications (user_id, msg_type, order_id, event, params, mail_batch)
       SELECT u.id, $2, o.id, $3, $4::jsonb, CASE WHEN u.receive_email THEN $6::uuid END
         FROM orders o
         JOIN users u ON u.organization_id = CASE WHEN o.clinic_organization_id = $5 THEN o.lab_organization_id
                                                  ELSE o.clinic_organization_id END
        WHERE o.id = ANY ($1::bigint[]) AND u.status = 1`,
      [
        orderIds,
        event === 'message' ? MSG_TYPES.orderMessage : MSG_TYPES.workOrder,
        event,
        JSON.stringify(params),
        actorOrgId,
        mailBatch,
      ],
    );
    if (mailBatch) {
      await db.query(
        `INSERT INTO contact_order_notices (contact_id, order_id, event, params, mail_batch)
         SELECT c.id, o.id, $2, $3::jsonb, $5::uuid
           FROM orders o
           JOIN company_contacts c ON c.organization_id = CASE WHEN o.clinic_organization_id = $4
                                                                THEN o.lab_organization_id
                                                                ELSE o.clinic_organization_id END
          WHERE o.id = ANY ($1::bigint[]) AND c.verified_at IS NOT NULL`,
        [orderIds, event, JSON.stringify(params), actorOrgId, mailBatch],
      );
    }
    await this.textMessages(db, orderIds, event, actorOrgId, params);
  }

  /** One text message per user of the other side who chose SMS and has a phone number, for the orders together. */
  private async textMessages(
    db: Queryable,
    orderIds: number[],
    event: OrderNotice,
    actorOrgId: number,
    params: Record<string, string>,
  ) {
    const rows = await db.query<NoticeOrder & { user_id: number; phone: string; language: string }>(
      `SELECT u.id AS user_id, u.phone, u.language, o.code, o.tracking_number, c.name AS case_name,
              co.name AS clinic_name, lo.name AS lab_name
         FROM orders o
         JOIN cases c ON c.id = o.case_id
         JOIN organizations co ON co.id = o.clinic_organization_id
         JOIN organizations lo ON lo.id = o.lab_organization_id
         JOIN users u ON u.organization_id = CASE WHEN o.clinic_organization_id = $2 THEN o.lab_organization_id
                                                  ELSE o.clinic_organization_id END
        WHERE o.id = ANY ($1::bigint[]) AND u.status = 1 AND u.msg_receive_type = 'sms' AND u.phone IS NOT NULL
        ORDER BY u.id, o.id`,
      [orderIds, actorOrgId],
    );
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

  /** Mails a batch's notifications after its changes committed; never fails the caller. */
  mailBatch(batch: string) {
    return this.sendBatch(batch).catch((err: unknown) => this.log.error({ err, batch }, 'order mail failed'));
  }

  /** Mails the batches a crash or a failure left behind (run every minute by the server process). */
  async mailLeftBehind(olderThanSeconds = 60): Promise<number> {
    const batches = await this.db.query<{ mail_batch: string }>(
      `SELECT mail_batch
         FROM notifications
        WHERE mail_batch IS NOT NULL AND created_at < now() - make_interval(secs => $1)
        UNION
       SELECT mail_batch
         FROM contact_order_notices
        WHERE created_at < now() - make_interval(secs => $1)
        LIMIT 100`,
      [olderThanSeconds],
    );
    for (const b of batches) await this.sendBatch(b.mail_batch);
    return batches.length;
  }

  private async sendBatch(batch: string) {
    const stored = await this.db.transaction(async (tx) => {
      // SKIP LOCKED: a batch being mailed by this or another process is left to it.
      const rows = await tx.query<MailRow & { id: number; user_id: number }>(
        `SELECT n.id, n.event, n.params, u.id AS user_id, u.email, u.display_name, u.language,
                u.organization_id = o.lab_organization_id AS recipient_is_lab,
                o.code, o.tracking_number, o.share_patient_name, c.name AS case_name, c.patient_name,
                co.name AS clinic_name, lo.name AS lab_name
           FROM notifications n
           JOIN users u ON u.id = n.user_id
           JOIN orders o ON o.id = n.order_id
           JOIN cases c ON c.id = o.case_id
           JOIN organizations co ON co.id = o.clinic_organization_id
           JOIN organizations lo ON lo.id = o.lab_organization_id
          WHERE n.mail_batch = $1
          ORDER BY u.id, o.id
            FOR UPDATE OF n SKIP LOCKED`,
        [batch],
      );
      // A contact is mailed in the language of the organization that added it (a deleted one took its rows along).
      const contactRows = await tx.query<MailRow & { id: number; contact_id: number; organization_name: string }>(
        `SELECT n.id, n.event, n.params, ct.id AS contact_id, ct.email, ct.user_name AS display_name,
                og.language, og.name AS organization_name,
                ct.organization_id = o.lab_organization_id AS recipient_is_lab,
                o.code, o.tracking_number, o.share_patient_name, c.name AS case_name, c.patient_name,
                co.name AS clinic_name, lo.name AS lab_name
           FROM contact_order_notices n
           JOIN company_contacts ct ON ct.id = n.contact_id
           JOIN organizations og ON og.id = ct.organization_id
           JOIN orders o ON o.id = n.order_id
           JOIN cases c ON c.id = o.case_id
           JOIN organizations co ON co.id = o.clinic_organization_id
           JOIN organizations lo ON lo.id = o.lab_organization_id
          WHERE n.mail_batch = $1
          ORDER BY ct.id, o.id
            FOR UPDATE OF n SKIP LOCKED`,
        [batch],
      );
      const mails: StoredMail[] = [];
      for (const orders of groupBy(rows, (r) => r.user_id).values())
        mails.push(await this.mailer.store(tx, this.mailFor(orders, 'orderEvent.settings')));
      for (const orders of groupBy(contactRows, (r) => r.contact_id).values()) {
        const organization = orders[0]!.organization_name;
        mails.push(await this.mailer.store(tx, this.mailFor(orders, 'orderEvent.contactSettings', { organization })));
      }
      if (rows.length > 0)
        await tx.query(`UPDATE notifications SET mail_batch = NULL WHERE id = ANY ($1::bigint[])`, [
          rows.map((r) => r.id),
        ]);
      if (contactRows.length > 0)
        await tx.query(`DELETE FROM contact_order_notices WHERE id = ANY ($1::bigint[])`, [
          contactRows.map((r) => r.id),
        ]);
      return mails;
    });
    await this.mailer.deliverStored(stored);
  }

  /** One recipient's mail about the orders of a batch, ending with why they receive it (`settingsKey`). */
  private mailFor(orders: MailRow[], settingsKey: string, settingsParams: Record<string, string> = {}): MailMessage {
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
