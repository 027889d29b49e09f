import { z } from 'zod';
import {
  ManagedOrganizationList,
  OrganizationCodesBody,
  OrganizationListQuery,
  OrgStatus,
  Permission,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { OrganizationsAdminService } from './organizations-admin.service.js';

const Count = envelope(z.object({ count: z.number() }));

/** Account → Organizations: the super administrator's list of every organization, disable and enable. */
export function organizationsAdminModule(organizations: OrganizationsAdminService): Module {
  return {
    privateRoutes(app) {
      app.post(
        '/company/listByPage',
        {
          schema: {
            tags: ['organizations'],
            summary: 'Every organization with its users and stored bytes, a page at a time (super administrator)',
            body: OrganizationListQuery,
            response: { 200: envelope(ManagedOrganizationList) },
          },
          config: { permission: Permission.OrganizationView },
        },
        async (request) => ok(request, await organizations.list(request.body)),
      );

      for (const [path, status, summary] of [
        [
          '/company/disable',
          OrgStatus.Disabled,
          "Disable organizations: their sessions end, sign-in and every call answer 'organization disabled'",
        ],
        ['/company/enable', OrgStatus.Active, 'Enable organizations again'],
      ] as const) {
        app.post(
          path,
          {
            schema: { tags: ['organizations'], summary, body: OrganizationCodesBody, response: { 200: Count } },
            config: {
              permission: Permission.OrganizationManage,
              sensitive: true,
              errors: ['NOT_FOUND', 'CANNOT_CHANGE_SELF'],
            },
          },
          async (request) =>
            ok(request, { count: await organizations.setStatus(request.body.organizationCodes, status) }),
        );
      }
    },
  };
}
