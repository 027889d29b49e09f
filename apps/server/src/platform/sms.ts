import type { FastifyBaseLogger } from 'fastify';
import * as smpp from 'smpp';
import type { Db, Queryable } from './db.js';
import { encodeSms, plainSmsText, smsParts } from './sms-encoding.js';

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
 * centre is configured, 'stored' (kept, never sent) otherwise. The text is kept as it will go out: on one line,
 * plain typography, trimmed and cut to `MAX_SMS_TEXT` (`plainSmsText`).
 */
export class OutboxSmsSender implements SmsSender {
  constructor(private readonly deliverable = false) {}
  async store(db: Queryable, message: SmsMessage) {
    await db.query(
      `INSERT INTO mail_outbox (to_address, language, subject, body_text, status)
       VALUES ($1, $2, 'SMS', $3, $4)`,
      [
        `${SMS_ADDRESS_PREFIX}${message.to}`,
        message.language,
        plainSmsText(message.text),
        this.deliverable ? 'pending' : 'stored',
      ],
    );
  }
}

/** A phone number as the centre takes it: digits with the international prefix's `+` dropped. */
const destination = (to: string) => to.replace(/[^\d+]/g, '').replace(/^\+/, '');

const MAX_ATTEMPTS = 5;
const BATCH = 50;
const TIMEOUT_MS = 10_000;
/** How long a run holds the messages it claimed: longer than a run can take (a batch stops at a lost session). */
const CLAIM_SECONDS = 600;

/** How a text longer than one SMS goes: concatenated parts (each with its header), or whole in message_payload. */
export type LongSms = 'split' | 'payload';

/** A submit the centre answered with an error status: that message failed, the session goes on. */
class Refused extends Error {}

/**
 * Delivers the outbox's pending text messages through an SMPP centre (`SMPP_URL`, smpp:// or ssmpp:// with the
 * system id and password as the address's user and password): one transmitter session per run. Each message is
 * claimed (SKIP LOCKED, then `claimed_until`) by one run of one process, so no two runs send it twice; it is sent,
 * or marked failed to be tried again on the next run, at most `MAX_ATTEMPTS` times. A centre that cannot be reached
 * fails the run's messages and nothing else: the request that wrote them never waits for the centre.
 */
export class SmppDelivery {
  private readonly target: { url: string; systemId: string; password: string };
  private readonly sourceAddr: string;
  private readonly long: LongSms;
  constructor(
    private readonly db: Db,
    opts: { url: string; sourceAddr: string; long?: LongSms },
    private readonly log: FastifyBaseLogger,
  ) {
    const u = new URL(opts.url);
    this.target = {
      url: `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`,
      systemId: decodeURIComponent(u.username),
      password: decodeURIComponent(u.password),
    };
    this.sourceAddr = opts.sourceAddr;
    this.long = opts.long ?? 'split';
  }

  /** Sends what is waiting; answers how many went out. */
  async deliverPending(): Promise<number> {
    const rows = await this.db.transaction((tx) =>
      tx.query<{ id: number; to_address: string; body_text: string; parts_sent: number }>(
        `UPDATE mail_outbox SET attempts = attempts + 1, claimed_until = now() + make_interval(secs => $3)
          WHERE id IN (SELECT id FROM mail_outbox
                        WHERE to_address LIKE 'sms:%' AND status IN ('pending', 'failed') AND attempts < $1
                          AND (claimed_until IS NULL OR claimed_until < now())
                        ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING id, to_address, body_text, parts_sent`,
        [MAX_ATTEMPTS, BATCH, CLAIM_SECONDS],
      ),
    );
    if (!rows.length) return 0;
    let session: smpp.Session | undefined;
    let sent = 0;
    let done = 0;
    try {
      session = await this.bind();
      for (const r of rows) {
        try {
          await this.submit(session, r, destination(r.to_address.slice(SMS_ADDRESS_PREFIX.length)));
          await this.mark(Number(r.id), 'sent');
          sent += 1;
        } catch (err) {
          await this.mark(Number(r.id), 'failed', err);
          // A refusal is this message's; a timeout or a lost connection is the session's: the rest wait.
          if (!(err instanceof Refused)) throw err;
        } finally {
          done += 1;
        }
      }
    } catch (err) {
      this.log.warn({ err }, 'sms: the SMPP centre could not be reached; the messages will be tried again');
      for (const r of rows.slice(done)) await this.mark(Number(r.id), 'failed', err);
    } finally {
      session?.close();
    }
    return sent;
  }

  private async mark(id: number, status: 'sent' | 'failed', err?: unknown) {
    await this.db.query(
      `UPDATE mail_outbox SET status = $2, sent_at = CASE WHEN $2 = 'sent' THEN now() END, last_error = $3,
              claimed_until = NULL
        WHERE id = $1`,
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

  /**
   * One text as submit_sm: in the GSM alphabet (data_coding 0) when it fits, else UCS-2 (8); longer than one SMS,
   * as concatenated parts (UDHI set, one reference) or whole in message_payload, as `SMPP_LONG_SMS` says. A part
   * the centre took is recorded at once: a retry after a later part failed sends only the parts still missing.
   */
  private async submit(
    session: smpp.Session,
    row: { id: number; body_text: string; parts_sent: number },
    to: string,
  ): Promise<void> {
    const encoded = encodeSms(row.body_text);
    const base = {
      source_addr: this.sourceAddr,
      source_addr_ton: /^\d+$/.test(this.sourceAddr) ? 1 : 5,
      source_addr_npi: /^\d+$/.test(this.sourceAddr) ? 1 : 0,
      destination_addr: to,
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      data_coding: encoded.dataCoding,
    };
    if (encoded.segments.length > 1 && this.long === 'payload') {
      await this.submitOne(session, { ...base, short_message: Buffer.alloc(0), message_payload: encoded.bytes });
      return;
    }
    // The reference follows from the row, so a retry's parts join those that went before; the parts the centre
    // already took (`parts_sent`) are not sent again.
    const { udh, messages } = smsParts(encoded, Number(row.id) % 256);
    for (let i = Number(row.parts_sent); i < messages.length; i += 1) {
      await this.submitOne(session, { ...base, esm_class: udh ? 0x40 : 0, short_message: messages[i] });
      if (udh) await this.db.query('UPDATE mail_outbox SET parts_sent = $2 WHERE id = $1', [row.id, i + 1]);
    }
  }

  private submitOne(session: smpp.Session, fields: Record<string, unknown>): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        session.off('close', closed);
        reject(new Error('SMPP submit timed out'));
      }, TIMEOUT_MS);
      const closed = () => {
        clearTimeout(timer);
        reject(new Error('SMPP session closed'));
      };
      session.once('close', closed);
      session.submit_sm(fields, (pdu) => {
        clearTimeout(timer);
        session.off('close', closed);
        if (pdu.command_status === 0) resolve();
        else reject(new Refused(`SMPP submit refused (status ${pdu.command_status})`));
      });
    });
  }
}
