import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from './db.js';
import { t } from './i18n.js';

export interface MailMessage {
  to: string;
  language: string;
  /** Key under the `mail` namespace holding `subject` and `body`. */
  template: string;
  params: Record<string, string | number>;
  /** Lines already in the recipient's language, used instead of the template's body. */
  lines?: string[];
  /** A key under `mail` used instead of the template's body (a variant of it). */
  bodyKey?: string;
  /** Extra lines (translated keys) after the body. */
  extraKeys?: string[];
  /** A link the recipient opens, printed on its own line. */
  link?: string;
  /** Who the greeting names; an empty name greets without one. */
  recipientName: string;
}

/**
 * Text that goes into a header (the subject): line breaks and other controls would start a header of their own, so
 * they become spaces whatever a name holds.
 */
export function headerText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

export const MAX_ATTEMPTS = 5;

export interface StoredMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  link?: string;
}

/**
 * Every mail is first written to the outbox table (so nothing is lost and the super administrator
 * can see it); with SMTP configured it is then delivered, and failures are retried.
 */
export class Mailer {
  private readonly transport?: Transporter;
  constructor(
    private readonly db: Db,
    private readonly opts: { smtpUrl?: string; from: string; appName: string },
    private readonly log: FastifyBaseLogger,
  ) {
    if (opts.smtpUrl) this.transport = nodemailer.createTransport(opts.smtpUrl);
  }

  render(message: MailMessage) {
    const p = { appName: this.opts.appName, ...message.params };
    const lines = [
      message.recipientName.trim()
        ? t(message.language, 'mail:greeting', { name: message.recipientName.trim() })
        : t(message.language, 'mail:greetingNoName'),
      '',
      ...(message.lines ?? [t(message.language, `mail:${message.bodyKey ?? `${message.template}.body`}`, p)]),
      ...(message.extraKeys ?? []).map((k) => t(message.language, `mail:${k}`, p)),
      ...(message.link ? ['', message.link] : []),
      '',
      t(message.language, 'mail:ignoreIfNotYou'),
      '',
      t(message.language, 'mail:signature', p),
    ];
    return {
      subject: headerText(`${t(message.language, `mail:${message.template}.subject`, p)} – ${this.opts.appName}`),
      text: lines.join('\n'),
    };
  }

  /** Stores a mail in the outbox and delivers it when SMTP is configured; answers its outbox id. */
  async send(message: MailMessage): Promise<number> {
    const stored = await this.store(this.db, message);
    await this.deliverStored([stored]);
    return stored.id;
  }

  /**
   * Writes a mail into the outbox through `db` (a transaction, so the mail exists exactly when the change that
   * caused it commits); `deliverStored` sends it once the transaction is over.
   */
  async store(db: Queryable, message: MailMessage): Promise<StoredMail> {
    const { subject, text } = this.render(message);
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO mail_outbox (to_address, language, subject, body_text, status)
       VALUES ($1, $2, $3, $4, $5)
       RETURNING id`,
      [message.to, message.language, subject, text, this.transport ? 'pending' : 'stored'],
    );
    return { id: Number(row!.id), to: message.to, subject, text, link: message.link };
  }

  async deliverStored(mails: StoredMail[]) {
    for (const m of mails) {
      if (this.transport) await this.deliver(m.id, m.to, m.subject, m.text);
      else this.log.info({ to: m.to, subject: m.subject, link: m.link }, 'mail stored in the outbox (no SMTP_URL)');
    }
  }

  private async deliver(id: number, to: string, subject: string, text: string) {
    try {
      await this.transport!.sendMail({ from: this.opts.from, to, subject, text });
      await this.db.query(
        `UPDATE mail_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1 WHERE id = $1`,
        [id],
      );
    } catch (err) {
      this.log.warn({ err, to }, 'mail delivery failed; it will be retried');
      await this.db.query(
        `UPDATE mail_outbox SET status = 'failed', attempts = attempts + 1, last_error = $2 WHERE id = $1`,
        [id, String(err).slice(0, 500)],
      );
    }
  }

  /** Retries mails that could not be delivered; called on an interval by the server process. */
  async retryFailed(): Promise<number> {
    if (!this.transport) return 0;
    const rows = await this.db.query<{ id: number; to_address: string; subject: string; body_text: string }>(
      `SELECT id, to_address, subject, body_text FROM mail_outbox WHERE status IN ('pending', 'failed') AND to_address NOT LIKE 'sms:%' AND attempts < $1 AND created_at < now() - interval '30 seconds' ORDER BY id LIMIT 50`,
      [MAX_ATTEMPTS],
    );
    for (const r of rows) await this.deliver(Number(r.id), r.to_address, r.subject, r.body_text);
    return rows.length;
  }

  close() {
    this.transport?.close();
  }
}
