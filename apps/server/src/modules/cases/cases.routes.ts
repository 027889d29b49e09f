import { z } from 'zod';
import {
  CaseCodeBody,
  CaseCodesBody,
  CaseDetail,
  CaseListQuery,
  CaseListResult,
  CreateCaseBody,
  EmptyEnvelope,
  RecycleBinQuery,
  UpdateCaseBody,
  envelope,
} from '@portal/contracts';
import { fail } from '../../platform/errors.js';
import { ok } from '../../platform/http.js';
import type { Module, Platform } from '../../platform/services.js';
import type { CasesService } from './cases.service.js';
import { readerOf } from '../audit/access-log.js';

const Count = envelope(z.object({ count: z.number() }));

export function casesModule(p: Platform, cases: CasesService): Module {
  const view = { permission: 'case:view' };
  const edit = { permission: 'case:edit' };
  return {
    privateRoutes(app) {
      app.post(
        '/case/list',
        {
          schema: {
            tags: ['cases'],
            summary: "The organization's cases: paging, sorting, filters, patient search",
            body: CaseListQuery,
            response: { 200: envelope(CaseListResult) },
          },
          config: view,
        },
        async (request) => ok(request, await cases.list(readerOf(request), request.body, request.timezone)),
      );

      app.post(
        '/case/detail',
        {
          schema: {
            tags: ['cases'],
            summary: 'A case with its files',
            body: CaseCodeBody,
            response: { 200: envelope(CaseDetail) },
          },
          config: { ...view, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await cases.detail(readerOf(request), request.body.caseCode)),
      );

      app.post(
        '/case/create',
        {
          schema: {
            tags: ['cases'],
            summary: 'Create a case in the portal (files are uploaded afterwards)',
            body: CreateCaseBody,
            response: { 200: envelope(CaseDetail) },
          },
          config: edit,
        },
        async (request) =>
          ok(request, await cases.create(request.auth.organizationId, request.auth.userId, request.body)),
      );

      app.post(
        '/case/update',
        {
          schema: {
            tags: ['cases'],
            summary: "Edit a case's patient data",
            body: UpdateCaseBody,
            response: { 200: envelope(CaseDetail) },
          },
          config: { ...edit, errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(request, await cases.update(request.auth.organizationId, request.body.caseCode, request.body)),
      );

      app.post(
        '/case/delete',
        {
          schema: {
            tags: ['cases'],
            summary: 'Move cases to the recycle bin (all or none; not while an order of the case is running)',
            body: CaseCodesBody,
            response: { 200: Count },
          },
          config: { ...edit, errors: ['NOT_FOUND', 'CASE_HAS_OPEN_ORDER'] },
        },
        async (request) =>
          ok(request, { count: await cases.moveToBin(request.auth.organizationId, request.body.caseCodes) }),
      );

      app.post(
        '/case/recycleBin',
        {
          schema: {
            tags: ['cases'],
            summary: 'Deleted cases, newest deletion first',
            body: RecycleBinQuery,
            response: { 200: envelope(CaseListResult) },
          },
          config: edit,
        },
        async (request) =>
          ok(request, await cases.recycleBin(request.auth.organizationId, request.body.pageNum, request.body.pageSize)),
      );

      app.post(
        '/case/restore',
        {
          schema: {
            tags: ['cases'],
            summary: 'Restore cases from the recycle bin',
            body: CaseCodesBody,
            response: { 200: Count },
          },
          config: { ...edit, errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(request, { count: await cases.restore(request.auth.organizationId, request.body.caseCodes) }),
      );

      app.post(
        '/case/purge',
        {
          schema: {
            tags: ['cases'],
            summary: 'Delete cases in the recycle bin permanently (frees storage)',
            body: CaseCodesBody,
            response: { 200: Count },
          },
          config: { ...edit, errors: ['NOT_FOUND', 'LEGAL_HOLD'] },
        },
        async (request) => {
          const { purged } = await cases.purge({ orgId: request.auth.organizationId, codes: request.body.caseCodes });
          if (!purged) fail('NOT_FOUND');
          return ok(request, { count: purged });
        },
      );

      app.post(
        '/case/recycleBin/empty',
        {
          schema: {
            tags: ['cases'],
            summary: 'Delete every case in the recycle bin permanently',
            response: { 200: Count },
          },
          config: edit,
        },
        async (request) => ok(request, { count: (await cases.purge({ orgId: request.auth.organizationId })).purged }),
      );
    },
  };
}
export { EmptyEnvelope };
