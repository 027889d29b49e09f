import type { Queryable } from './db.js';

export interface SmsMessage {
  /** The phone number as the user gave it. */
  to: string;
  language: string;
  text: string;
}

/**
 * Text messages (the "SMS" receiving type of own space). Written in the caller's transaction, so a message exists
 * exactly when the change it tells of commits. A gateway would implement this; the default keeps them in the outbox.
 */
export interface SmsSender {
  store(db: Queryable, message: SmsMessage): Promise<void>;
}

/** Keeps each text message in the mail outbox, addressed `sms:<number>`, where the outbox screen shows it. */
export class OutboxSmsSender implements SmsSender {
  async store(db: Queryable, message: SmsMessage) {
    await db.query(
      `INSERT INTO mail_outbox (to_address, language, subject, body_text, status)
       VALUES ($1, $2, 'SMS', $3, 'stored')`,
      [`sms:${message.to}`, message.language, message.text],
    );
  }
}
