import type { Queryable } from '../../platform/db.js';

export interface ContactRow {
  id: number;
  contact_code: string;
  user_name: string;
  email: string;
  verify_expires_at: Date;
  verified_at: Date | null;
  created_at: Date;
  expired: boolean;
}

const CONTACT_COLUMNS = `id, contact_code, user_name, email, verify_expires_at, verified_at, created_at,
       verify_expires_at < now() AS expired`;

/** An organization's contacts: people outside the portal who receive its order mails. */
export const contactsRepository = {
  async list(db: Queryable, organizationId: number): Promise<ContactRow[]> {
    return db.query<ContactRow>(
      `SELECT ${CONTACT_COLUMNS}
         FROM company_contacts
        WHERE organization_id = $1
        ORDER BY created_at DESC, id DESC`,
      [organizationId],
    );
  },
  async byCode(db: Queryable, organizationId: number, contactCode: string): Promise<ContactRow | undefined> {
    const [row] = await db.query<ContactRow>(
      `SELECT ${CONTACT_COLUMNS}
         FROM company_contacts
        WHERE organization_id = $1 AND contact_code = $2`,
      [organizationId, contactCode],
    );
    return row;
  },
  async emailExists(db: Queryable, organizationId: number, email: string): Promise<boolean> {
    const rows = await db.query(
      `SELECT 1
         FROM company_contacts
        WHERE organization_id = $1 AND lower(email) = lower($2)`,
      [organizationId, email],
    );
    return rows.length > 0;
  },
  async insert(
    db: Queryable,
    c: {
      contactCode: string;
      organizationId: number;
      userName: string;
      email: string;
      tokenHash: string;
      days: number;
    },
  ): Promise<ContactRow> {
    const [row] = await db.query<ContactRow>(
      `INSERT INTO company_contacts (contact_code, organization_id, user_name, email, verify_token_hash, verify_expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6))
       RETURNING ${CONTACT_COLUMNS}`,
      [c.contactCode, c.organizationId, c.userName, c.email, c.tokenHash, c.days],
    );
    return row!;
  },
  /** A new link replaces the old one, which stops working. */
  async renewLink(db: Queryable, id: number, tokenHash: string, days: number) {
    await db.query(
      `UPDATE company_contacts
          SET verify_token_hash = $2, verify_expires_at = now() + make_interval(days => $3)
        WHERE id = $1`,
      [id, tokenHash, days],
    );
  },
  async delete(db: Queryable, organizationId: number, contactCode: string): Promise<boolean> {
    const rows = await db.query(
      `DELETE FROM company_contacts
        WHERE organization_id = $1 AND contact_code = $2
        RETURNING 1`,
      [organizationId, contactCode],
    );
    return rows.length > 0;
  },
  async byToken(
    db: Queryable,
    tokenHash: string,
  ): Promise<
    { id: number; email: string; organization_name: string; expired: boolean; verified: boolean } | undefined
  > {
    const [row] = await db.query<{
      id: number;
      email: string;
      organization_name: string;
      expired: boolean;
      verified: boolean;
    }>(
      `SELECT c.id, c.email, o.name AS organization_name, c.verify_expires_at < now() AS expired,
              c.verified_at IS NOT NULL AS verified
         FROM company_contacts c
         JOIN organizations o ON o.id = c.organization_id
        WHERE c.verify_token_hash = $1`,
      [tokenHash],
    );
    return row;
  },
  async markVerified(db: Queryable, id: number) {
    await db.query(
      `UPDATE company_contacts
          SET verified_at = now()
        WHERE id = $1 AND verified_at IS NULL`,
      [id],
    );
  },
  /** The organization's name and language, which its contacts' mails are written in. */
  async organization(db: Queryable, organizationId: number): Promise<{ name: string; language: string }> {
    const [row] = await db.query<{ name: string; language: string }>(
      `SELECT name, language
         FROM organizations
        WHERE id = $1`,
      [organizationId],
    );
    return row!;
  },
};
