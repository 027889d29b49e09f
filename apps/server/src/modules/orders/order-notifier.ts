import { MSG_TYPES } from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../../platform/db.js';
import type { Mailer } from '../../platform/mail.js';
import { t } from '../../platform/i18n.js';

/** What a notification or mail is about; the text comes from the `notice` namespace in the reader's language. */
export type OrderNotice = 'create' | 'accept' | 'startProcessing' | 'ready' | 'ship' | 'reject' | 'cancel' | 'complete' | 'message';

/** Mails list at most this many orders; a batch of 500 shipped orders is one mail per recipient, not 500. */
const MAIL_LIST_MAX = 20;

interface NoticeOrder {
  code: string; case_name: string; clinic_name: string; lab_name: string; tracking_number: string | null;
}

/** The words of a notice about one order, in a language. */
export function renderNotice(lang: string, event: string, o: NoticeOrder, params: Record<string, string>) {
  const p = { order: o.code, case: o.case_name, clinic: o.clinic_name, lab: o.lab_name, tracking: o.tracking_number ?? '', ...params };
  return { title: t(lang, `notice:${event}.title`, p), content: t(lang, `notice:${event}.content`, p) };
}

/**
 * Tells the other side of an order what happened: a notification per active user (message types 2 and 5),
 * and one mail per user who receives mails, in their language, listing the orders of a batch together.
 */
export class OrderNotifier {
  constructor(private readonly db: Db, private readonly mailer: Mailer, private readonly publicUrl: string, private readonly log: FastifyBaseLogger) {}

  /** Writes the notifications for the other side of each order (the actor's organization is `actorOrgId`). */
  async record(db: Queryable, orderIds: number[], event: OrderNotice, actorOrgId: number, params: Record<string, string> = {}) {
    if (orderIds.length === 0) return;
    await db.query(
      `INSERT INTO notifications (user_id, msg_type, order_id, event, params)
       SELECT u.id, $2, o.id, $3, $4::jsonb FROM orders o
         JOIN users u ON u.organization_id = CASE WHEN o.clinic_organization_id = $5 THEN o.lab_organization_id ELSE o.clinic_organization_id END
        WHERE o.id = ANY ($1::bigint[]) AND u.status = 1`,
      [orderIds, event === 'message' ? MSG_TYPES.orderMessage : MSG_TYPES.workOrder, event, JSON.stringify(params), actorOrgId],
    );
  }

  /** Mails the other side about orders that changed; runs after the change is committed and never fails the caller. */
  mail(orderIds: number[], event: OrderNotice, actorOrgId: number, params: Record<string, string> = {}) {
    if (orderIds.length === 0) return Promise.resolve();
    return this.sendMails(orderIds, event, actorOrgId, params).catch((err: unknown) => this.log.error({ err, event }, 'order mail failed'));
  }

  private async sendMails(orderIds: number[], event: OrderNotice, actorOrgId: number, params: Record<string, string>) {
    const rows = await this.db.query<NoticeOrder & {
      user_id: number; email: string; display_name: string; language: string; recipient_is_lab: boolean; share_patient_name: boolean; patient_name: string;
    }>(
      `SELECT u.id AS user_id, u.email, u.display_name, u.language, u.organization_id = o.lab_organization_id AS recipient_is_lab,
              o.code, o.tracking_number, o.share_patient_name, c.name AS case_name, c.patient_name, co.name AS clinic_name, lo.name AS lab_name
         FROM orders o JOIN cases c ON c.id = o.case_id
         JOIN organizations co ON co.id = o.clinic_organization_id JOIN organizations lo ON lo.id = o.lab_organization_id
         JOIN users u ON u.organization_id = CASE WHEN o.clinic_organization_id = $2 THEN o.lab_organization_id ELSE o.clinic_organization_id END
        WHERE o.id = ANY ($1::bigint[]) AND u.status = 1 AND u.receive_email ORDER BY u.id, o.id`,
      [orderIds, actorOrgId],
    );
    const byUser = new Map<number, typeof rows>();
    for (const r of rows) {
      const list = byUser.get(r.user_id);
      if (list) list.push(r);
      else byUser.set(r.user_id, [r]);
    }
    for (const orders of byUser.values()) {
      const first = orders[0]!;
      const lang = first.language;
      const single = renderNotice(lang, event, first, params);
      // The laboratory never reads the patient's name unless the clinic shares it.
      const line = (o: (typeof orders)[number]) =>
        `• ${o.code} – ${o.case_name}${!o.recipient_is_lab || o.share_patient_name ? ` (${o.patient_name})` : ''}`;
      const lines = orders.length === 1
        ? [single.content]
        : [t(lang, 'mail:orderEvent.batch', { count: orders.length, title: single.title }), '', ...orders.slice(0, MAIL_LIST_MAX).map(line),
          ...(orders.length > MAIL_LIST_MAX ? [t(lang, 'mail:orderEvent.more', { count: orders.length - MAIL_LIST_MAX })] : [])];
      await this.mailer.send({
        to: first.email, language: lang, recipientName: first.display_name, template: 'orderEvent',
        params: { title: orders.length === 1 ? single.title : t(lang, 'mail:orderEvent.batchSubject', { count: orders.length, title: single.title }) },
        lines, extraKeys: ['orderEvent.settings'],
        link: orders.length === 1 ? `${this.publicUrl}/order-management/detail/${first.code}` : `${this.publicUrl}/order-management`,
      });
    }
  }
}
