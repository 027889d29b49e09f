import { pageOf, sqlPageAndTotal, type Queryable } from '../../platform/db.js';

interface MailRow {
  id: number;
  to_address: string;
  subject: string;
  body_text: string;
  status: string;
  created_at: Date;
}

function toPage({ total, rows }: { total: number; rows: MailRow[] }) {
  return {
    total,
    list: rows.map((r) => ({
      id: Number(r.id),
      to: r.to_address,
      subject: r.subject,
      text: r.body_text,
      status: r.status,
      createdAt: new Date(r.created_at).toISOString(),
    })),
  };
}

const COLUMNS = `id, to_address, subject, body_text, status, created_at`;

export const mailRepository = {
  /** The whole outbox, newest first (the super administrator's view). */
  async page(db: Queryable, limit: number, offset: number) {
    const rows = await db.query<MailRow & { total: number }>(
      sqlPageAndTotal(
        'FROM mail_outbox',
        `SELECT ${COLUMNS}
           FROM mail_outbox
          ORDER BY created_at DESC, id DESC
          LIMIT $1 OFFSET $2`,
      ),
      [limit, offset],
    );
    return toPage(pageOf(rows));
  },

  /** Mail sent to one address, newest first; only the given mails of it when `onlyIds` is set. */
  async toAddress(db: Queryable, address: string, limit: number, onlyIds?: number[]) {
    const where = `WHERE lower(to_address) = lower($1)${onlyIds ? ' AND id = ANY ($3::bigint[])' : ''}`;
    const rows = await db.query<MailRow & { total: number }>(
      sqlPageAndTotal(
        `FROM mail_outbox ${where}`,
        `SELECT ${COLUMNS}
           FROM mail_outbox
          ${where}
          ORDER BY created_at DESC, id DESC
          LIMIT $2`,
      ),
      onlyIds ? [address, limit, onlyIds] : [address, limit],
    );
    return toPage(pageOf(rows));
  },
};
