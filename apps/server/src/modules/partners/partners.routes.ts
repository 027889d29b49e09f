import { z } from 'zod';
import {
  ApplyBody,
  InvitationCodeBody,
  InvitationTarget,
  InvitationTokenBody,
  InviteLabBody,
  PartnerActionBody,
  PartnerDetail,
  PartnerListQuery,
  PartnerListResult,
  PartnerSearchQuery,
  Permission,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import { PartnersService } from './partners.service.js';

/**
 * Partner management is a permission (docs/architecture.md, "Administrators and permissions"): seeing partners needs
 * partner:view, changing them partner:edit; both come with the administrator roles and can be given to any role.
 * Without them the specification's message answers (2031).
 */
const VIEW = { permission: Permission.PartnerView, permissionRefusal: 'PARTNER_NO_ACCESS' } as const;
const EDIT = { permission: Permission.PartnerEdit, permissionRefusal: 'PARTNER_NO_ACCESS' } as const;

export function partnersModule(p: Platform, partners = new PartnersService(p.db, p.mailer, p.config)): Module {
  const Detail = { 200: envelope(PartnerDetail) };
  return {
    privateRoutes(app) {
      app.post(
        '/user/partner/checkInvitationCode',
        {
          schema: {
            tags: ['partners'],
            summary: "The organization behind an invitation code (a lab's for a clinic, a clinic's for a lab)",
            body: InvitationCodeBody,
            response: { 200: envelope(InvitationTarget) },
          },
          config: { ...EDIT, errors: ['PARTNER_NO_ACCESS', 'PARTNER_NAME_UNAVAILABLE', 'PARTNER_INVALID_TARGET'] },
        },
        async (request) => ok(request, await partners.checkInvitationCode(request.auth, request.body.invitationCode)),
      );

      app.post(
        '/partner/search',
        {
          schema: {
            tags: ['partners'],
            summary: 'Find laboratories (for a clinic) or clinics (for a laboratory) by name',
            body: PartnerSearchQuery,
            response: { 200: envelope(z.object({ list: z.array(InvitationTarget) })) },
          },
          config: { ...EDIT, errors: ['PARTNER_NO_ACCESS'] },
        },
        async (request) => ok(request, await partners.search(request.auth, request.body.keyword)),
      );

      app.post(
        '/partner/apply',
        {
          schema: {
            tags: ['partners'],
            summary:
              'Apply for a partnership (a clinic to a lab, or a lab associating a clinic); again after a rejection or termination',
            body: ApplyBody,
            response: Detail,
          },
          config: {
            ...EDIT,
            errors: ['PARTNER_NO_ACCESS', 'NOT_FOUND', 'PARTNER_INVALID_TARGET', 'PARTNER_TRANSITION'],
          },
        },
        async (request) =>
          ok(request, await partners.apply(request.auth, request.body.organizationCode, request.body.reason)),
      );

      for (const action of ['accept', 'reject', 'cancel', 'terminate'] as const) {
        app.post(
          `/partner/${action}`,
          {
            schema: {
              tags: ['partners'],
              summary: `${action[0]!.toUpperCase()}${action.slice(1)} a partnership${action === 'reject' ? ' (a reason is required)' : ''}`,
              body: PartnerActionBody,
              response: Detail,
            },
            config: { ...EDIT, errors: ['PARTNER_NO_ACCESS', 'NOT_FOUND', 'PARTNER_TRANSITION'] },
          },
          async (request) =>
            ok(request, await partners.act(request.auth, request.body.partnerCode, action, request.body.reason)),
        );
      }

      app.post(
        '/partner/list',
        {
          schema: {
            tags: ['partners'],
            summary: 'Partners by tab: mine (accepted), toConfirm (applying, invited), history',
            body: PartnerListQuery,
            response: { 200: envelope(PartnerListResult) },
          },
          config: { ...VIEW, errors: ['PARTNER_NO_ACCESS'] },
        },
        async (request) => ok(request, await partners.list(request.auth, request.body)),
      );

      app.post(
        '/user/getPartnerInfo',
        {
          schema: {
            tags: ['partners'],
            summary: 'A partnership with its timeline',
            body: PartnerActionBody.pick({ partnerCode: true }),
            response: Detail,
          },
          config: { ...VIEW, errors: ['PARTNER_NO_ACCESS', 'NOT_FOUND'] },
        },
        async (request) => ok(request, await partners.detail(request.auth, request.body.partnerCode)),
      );

      app.post(
        '/partner/inviteLab',
        {
          schema: {
            tags: ['partners'],
            summary: 'A clinic invites a laboratory by email (a temporary partner until it registers and confirms)',
            body: InviteLabBody,
            response: Detail,
          },
          config: {
            ...EDIT,
            rateLimit: { max: 20, timeWindow: '1 minute' },
            errors: ['PARTNER_NO_ACCESS', 'NOT_FOUND', 'PARTNER_INVALID_TARGET', 'PARTNER_TRANSITION'],
          },
        },
        async (request, reply) => {
          const { partner, mailId } = await partners.inviteLab(request.auth, request.body.email);
          if (mailId) p.demoMailbox.grantMail(request, reply, mailId);
          return ok(request, partner);
        },
      );

      app.post(
        '/partner/confirmInvitation',
        {
          schema: {
            tags: ['partners'],
            summary: 'The invited laboratory confirms the partnership with the emailed token',
            body: InvitationTokenBody,
            response: Detail,
          },
          config: {
            ...EDIT,
            errors: [
              'PARTNER_NO_ACCESS',
              'PARTNER_INVALID_TARGET',
              'INVALID_LINK',
              'INVITATION_EXPIRED',
              'PARTNER_TRANSITION',
            ],
          },
        },
        async (request) => ok(request, await partners.confirmInvitation(request.auth, request.body.token)),
      );
    },
  };
}
