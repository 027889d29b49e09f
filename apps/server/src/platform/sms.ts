import type { FastifyBaseLogger } from 'fastify';
import * as smpp from 'smpp';
import type { Db, Queryable } from './db.js';

export interface SmsMessage {
  /** The phone number as the user gave it. */
  to: string;
  language: string;
  text: string;
}

/**
 * Text messages (the "SMS" receiving type of own space). Written in the caller's transaction, so a message exists
 * exactly when the change it tells of commits; delivered afterwards by `SmppDelivery` when SMPP is configured.
 */
export interface SmsSender {
  store(db: Queryable, message: SmsMessage): Promise<void>;
}

/** Outbox rows that are text messages: `sms:<number>`, shown on the outbox screen beside the mails. */
export const SMS_ADDRESS_PREFIX = 'sms:';

/**
 * Keeps each text message in the mail outbox, addressed `sms:<number>`: 'pending' for delivery when an SMPP
 * centre is configured, 'stored' (kept, never sent) otherwise.
 */
export class OutboxSmsSender implements SmsSender {
  constructor(private readonly deliverable = false) {}
  async store(db: Queryable, message: SmsMessage) {
    await db.query(
      `INSERT INTO mail_outbox (to_address, language, subject, body_text, status)
       VALUES ($1, $2, 'SMS', $3, $4)`,
      [`${SMS_ADDRESS_PREFIX}${message.to}`, message.language, message.text, this.deliverable ? 'pending' : 'stored'],
    );
  }
}

/** One message's bytes fit one SMS: 160 GSM characters, 140 Latin-1 bytes, 70 UCS-2 characters. */
const SINGLE_SMS = { ASCII: 160, LATIN1: 140, UCS2: 70 } as const;

/**
 * How a text goes out: the smallest alphabet that holds it (GSM 03.38, Latin-1, else UCS-2, which every script
 * fits), in `short_message` when it fits one SMS, else whole in the `message_payload` parameter (the centre splits
 * it), so nothing is cut.
 */
export function smsFields(text: string): {
  encoding: 'ASCII' | 'LATIN1' | 'UCS2';
  field: 'short_message' | 'message_payload';
} {
  const encoding = smpp.encodings.detect(text);
  // Characters past the basic plane take two UCS-2 units.
  const length = encoding === 'UCS2' ? text.length : [...text].length;
  return { encoding, field: length <= SINGLE_SMS[encoding] ? 'short_message' : 'message_payload' };
}

/** A phone number as the centre takes it: digits with the international prefix's `+` dropped. */
const destination = (to: string) => to.replace(/[^\d+]/g, '').replace(/^\+/, '');

const MAX_ATTEMPTS = 5;
const BATCH = 50;
const TIMEOUT_MS = 10_000;

/**
 * Delivers the outbox's pending text messages through an SMPP centre (`SMPP_URL`, smpp:// or ssmpp:// with the
 * system id and password as the address's user and password): one transmitter session per run, each message
 * claimed by one process only (SKIP LOCKED), sent or marked failed to be tried again on the next run.
 */
export class SmppDelivery {
  private readonly target: { url: string; systemId: string; password: string };
  constructor(
    private readonly db: Db,
    opts: { url: string; sourceAddr: string },
    private readonly log: FastifyBaseLogger,
  ) {
    const u = new URL(opts.url);
    this.target = {
      url: `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`,
      systemId: decodeURIComponent(u.username),
      password: decodeURIComponent(u.password),
    };
    this.sourceAddr = opts.sourceAddr;
  }
  private readonly sourceAddr: string;

  /** Sends what is waiting; answers how many went out. */
  async deliverPending(): Promise<number> {
    const rows = await this.db.transaction((tx) =>
      tx.query<{ id: number; to_address: string; body_text: string }>(
        `UPDATE mail_outbox SET attempts = attempts + 1
          WHERE id IN (SELECT id FROM mail_outbox
                        WHERE to_address LIKE 'sms:%' AND status IN ('pending', 'failed') AND attempts < $1
                        ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING id, to_address, body_text`,
        [MAX_ATTEMPTS, BATCH],
      ),
    );
    if (!rows.length) return 0;
    let session: smpp.Session | undefined;
    let sent = 0;
    try {
      session = await this.bind();
      for (const r of rows) {
        try {
          await this.submit(session, destination(r.to_address.slice(SMS_ADDRESS_PREFIX.length)), r.body_text);
          await this.mark(Number(r.id), 'sent');
          sent += 1;
        } catch (err) {
          await this.mark(Number(r.id), 'failed', err);
        }
      }
    } catch (err) {
      this.log.warn({ err }, 'sms: the SMPP centre could not be reached; the messages will be tried again');
      for (const r of rows.slice(sent)) await this.mark(Number(r.id), 'failed', err);
    } finally {
      session?.close();
    }
    return sent;
  }

  private async mark(id: number, status: 'sent' | 'failed', err?: unknown) {
    await this.db.query(
      `UPDATE mail_outbox SET status = $2, sent_at = CASE WHEN $2 = 'sent' THEN now() END, last_error = $3 WHERE id = $1`,
      [id, status, err === undefined ? null : (err instanceof Error ? err.message : JSON.stringify(err)).slice(0, 500)],
    );
  }

  private bind(): Promise<smpp.Session> {
    return new Promise((resolve, reject) => {
      const session = smpp.connect({ url: this.target.url });
      const timer = setTimeout(() => fail(new Error('SMPP bind timed out')), TIMEOUT_MS);
      const fail = (err: unknown) => {
        clearTimeout(timer);
        session.destroy();
        reject(err instanceof Error ? err : new Error(String(err)));
      };
      session.once('error', fail);
      session.bind_transmitter({ system_id: this.target.systemId, password: this.target.password }, (pdu) => {
        clearTimeout(timer);
        session.off('error', fail);
        // Later socket errors end this run's session; the messages left are tried again.
        session.on('error', (err: unknown) => this.log.warn({ err }, 'sms: SMPP session error'));
        if (pdu.command_status === 0) resolve(session);
        else fail(new Error(`SMPP bind refused (status ${pdu.command_status})`));
      });
    });
  }

  private submit(session: smpp.Session, to: string, text: string): Promise<void> {
    const { field } = smsFields(text);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('SMPP submit timed out')), TIMEOUT_MS);
      session.submit_sm(
        {
          source_addr: this.sourceAddr,
          source_addr_ton: /^\d+$/.test(this.sourceAddr) ? 1 : 5,
          destination_addr: to,
          dest_addr_ton: 1,
          dest_addr_npi: 1,
          ...(field === 'short_message' ? { short_message: text } : { short_message: '', message_payload: text }),
        },
        (pdu) => {
          clearTimeout(timer);
          if (pdu.command_status === 0) resolve();
          else reject(new Error(`SMPP submit refused (status ${pdu.command_status})`));
        },
      );
    });
  }
}
