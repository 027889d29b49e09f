import {
  AddContactBody,
  CompanyContact,
  CompanyContactList,
  ContactCodeBody,
  ContactVerifyBody,
  ContactVerifyResult,
  EmptyEnvelope,
  Permission,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { DemoMailbox } from '../mail/demo-mailbox.js';
import type { ContactsService } from './contacts.service.js';

/**
 * Contacts receive the organization's order mails. Who they are may be read by anyone who sees the orders; adding,
 * re-inviting or removing one decides where the organization's order mails go, an administrator's decision
 * (contact:manage, held by the clinic and laboratory administrator roles): a member who may only read orders cannot
 * send them to an address of theirs.
 */
const CONTACTS_READ = 'order:view';
const CONTACTS_MANAGE = Permission.ContactManage;

export function contactsModule(contacts: ContactsService, demoMailbox: DemoMailbox): Module {
  return {
    publicRoutes(app) {
      app.post(
        '/companyContact/contactEmailVerify',
        {
          schema: {
            tags: ['contacts'],
            summary: 'A contact confirms their address with the link mailed to them (valid 7 days)',
            body: ContactVerifyBody,
            response: { 200: envelope(ContactVerifyResult) },
          },
          config: {
            rateLimit: { max: 20, timeWindow: '1 minute' },
            errors: ['INVALID_LINK', 'LINK_EXPIRED'],
          },
        },
        async (request) => ok(request, await contacts.verify(request.body.verifyCode)),
      );
    },
    privateRoutes(app) {
      app.post(
        '/companyContact/list',
        {
          schema: {
            tags: ['contacts'],
            summary: "The organization's contacts with their verification status",
            response: { 200: envelope(CompanyContactList) },
          },
          config: { permission: CONTACTS_READ },
        },
        async (request) => ok(request, await contacts.list(request.auth.organizationId)),
      );

      app.post(
        '/companyContact/add',
        {
          schema: {
            tags: ['contacts'],
            summary: 'Add a contact (user name and email); a verification link is mailed to them',
            body: AddContactBody,
            response: { 200: envelope(CompanyContact) },
          },
          config: { permission: CONTACTS_MANAGE, errors: ['CONTACT_EXISTS'] },
        },
        async (request, reply) => {
          const { contact, mailId } = await contacts.add(request.auth.organizationId, request.body);
          // Demo mode: the browser that added the contact may read the link mailed to it, and no other mail.
          demoMailbox.grantMail(request, reply, mailId);
          return ok(request, contact);
        },
      );

      app.post(
        '/companyContact/resendVerifyEmail',
        {
          schema: {
            tags: ['contacts'],
            summary: 'Mail a contact a new verification link (the previous one stops working)',
            body: ContactCodeBody,
            response: { 200: envelope(CompanyContact) },
          },
          config: { permission: CONTACTS_MANAGE, errors: ['NOT_FOUND', 'CONTACT_ALREADY_VERIFIED'] },
        },
        async (request, reply) => {
          const { contact, mailId } = await contacts.resend(request.auth.organizationId, request.body.contactCode);
          demoMailbox.grantMail(request, reply, mailId);
          return ok(request, contact);
        },
      );

      app.post(
        '/companyContact/delete',
        {
          schema: {
            tags: ['contacts'],
            summary: 'Remove a contact; they receive no more order mails',
            body: ContactCodeBody,
            response: { 200: EmptyEnvelope },
          },
          config: { permission: CONTACTS_MANAGE, errors: ['NOT_FOUND'] },
        },
        async (request) => {
          await contacts.delete(request.auth.organizationId, request.body.contactCode);
          return ok(request, null);
        },
      );
    },
  };
}
