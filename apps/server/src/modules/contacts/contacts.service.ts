import { CONTACT_VERIFICATION_VALIDITY_DAYS, type CompanyContact, type AddContactBody } from '@portal/contracts';
import type { Db, Queryable } from '../../platform/db.js';
import type { Mailer } from '../../platform/mail.js';
import { newCode, newToken, sha256 } from '../../platform/crypto.js';
import { fail } from '../../platform/errors.js';
import { contactsRepository, type ContactRow } from './contacts.repository.js';

const iso = (d: Date | string) => new Date(d).toISOString();

function toContact(c: ContactRow): CompanyContact {
  return {
    contactCode: c.contact_code,
    userName: c.user_name,
    email: c.email,
    status: c.verified_at ? 'verified' : c.expired ? 'expired' : 'pending',
    createdAt: iso(c.created_at),
    verifiedAt: c.verified_at ? iso(c.verified_at) : null,
    linkExpiresAt: iso(c.verify_expires_at),
  };
}

/**
 * Own space → contacts. A contact receives the organization's order mails once they open the link mailed to them
 * (valid CONTACT_VERIFICATION_VALIDITY_DAYS days; the organization can send a new one).
 */
export class ContactsService {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
  ) {}

  async list(organizationId: number) {
    return { list: (await contactsRepository.list(this.db, organizationId)).map(toContact) };
  }

  /** Adds a contact and mails it a link; answers the contact and the outbox id of that mail. */
  async add(organizationId: number, input: AddContactBody): Promise<{ contact: CompanyContact; mailId: number }> {
    if (await contactsRepository.emailExists(this.db, organizationId, input.email))
      fail('CONTACT_EXISTS', { email: input.email }, { field: 'email' });
    const token = newToken();
    const { contact, mail } = await this.db.transaction(async (tx) => {
      const contact = await contactsRepository.insert(tx, {
        contactCode: newCode('ct'),
        organizationId,
        userName: input.userName,
        email: input.email,
        tokenHash: sha256(token),
        days: CONTACT_VERIFICATION_VALIDITY_DAYS,
      });
      return { contact, mail: await this.storeVerifyMail(tx, organizationId, contact, token) };
    });
    await this.mailer.deliverStored([mail]);
    return { contact: toContact(contact), mailId: mail.id };
  }

  async resend(organizationId: number, contactCode: string): Promise<{ contact: CompanyContact; mailId: number }> {
    const contact = await contactsRepository.byCode(this.db, organizationId, contactCode);
    if (!contact) fail('NOT_FOUND');
    if (contact.verified_at) fail('CONTACT_ALREADY_VERIFIED');
    const token = newToken();
    const mail = await this.db.transaction(async (tx) => {
      await contactsRepository.renewLink(tx, contact.id, sha256(token), CONTACT_VERIFICATION_VALIDITY_DAYS);
      return this.storeVerifyMail(tx, organizationId, contact, token);
    });
    await this.mailer.deliverStored([mail]);
    return {
      contact: toContact((await contactsRepository.byCode(this.db, organizationId, contactCode))!),
      mailId: mail.id,
    };
  }

  async delete(organizationId: number, contactCode: string) {
    if (!(await contactsRepository.delete(this.db, organizationId, contactCode))) fail('NOT_FOUND');
  }

  /** The link from the mail: verifies the address (opening it again answers the same). */
  async verify(verifyCode: string) {
    const found = await contactsRepository.byToken(this.db, sha256(verifyCode));
    if (!found) fail('INVALID_LINK');
    if (!found.verified) {
      if (found.expired) fail('LINK_EXPIRED');
      await contactsRepository.markVerified(this.db, found.id);
    }
    return { organizationName: found.organization_name, email: found.email };
  }

  private async storeVerifyMail(tx: Queryable, organizationId: number, contact: ContactRow, token: string) {
    const org = await contactsRepository.organization(tx, organizationId);
    return this.mailer.store(tx, {
      to: contact.email,
      language: org.language,
      recipientName: contact.user_name,
      template: 'contactVerify',
      params: { organization: org.name, days: CONTACT_VERIFICATION_VALIDITY_DAYS },
      link: `${this.publicUrl}/contact-email-verify/${token}`,
    });
  }
}
