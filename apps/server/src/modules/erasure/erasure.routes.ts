import {
  CaseLegalHold,
  ErasureBody,
  ErasureCertificate,
  ErasureGetBody,
  ErasureList,
  ErasureListQuery,
  LegalHoldBody,
  LegalHoldReleaseBody,
  Permission,
  envelope,
} from '@portal/contracts';
import { ok } from '../../platform/http.js';
import type { Module } from '../../platform/services.js';
import type { CasesService } from '../cases/cases.service.js';
import type { ErasureService } from './erasure.service.js';

/** Erasing a patient's data on request, its certificates, and the legal holds that stop it: clinic administrators. */
export function erasureModule(erasure: ErasureService, cases: CasesService): Module {
  const erase = { permission: Permission.PatientErase };
  return {
    privateRoutes(app) {
      app.post(
        '/case/erase',
        {
          schema: {
            tags: ['cases'],
            summary:
              "Erase a patient's cases for good (files, reports, shares, exports, order attachments; orders keep no patient data) and answer the certificate",
            body: ErasureBody,
            response: { 200: envelope(ErasureCertificate) },
          },
          config: { ...erase, sensitive: true, errors: ['NOT_FOUND', 'LEGAL_HOLD'] },
        },
        async (request) =>
          ok(request, await erasure.erase(request.auth.organizationId, request.auth.userId, request.body)),
      );

      app.post(
        '/case/erasure/list',
        {
          schema: {
            tags: ['cases'],
            summary: "The organization's erasure certificates, newest first",
            body: ErasureListQuery,
            response: { 200: envelope(ErasureList) },
          },
          config: erase,
        },
        async (request) => ok(request, await erasure.list(request.auth.organizationId, request.body)),
      );

      app.post(
        '/case/erasure/get',
        {
          schema: {
            tags: ['cases'],
            summary: 'One erasure certificate',
            body: ErasureGetBody,
            response: { 200: envelope(ErasureCertificate) },
          },
          config: { ...erase, errors: ['NOT_FOUND'] },
        },
        async (request) => ok(request, await erasure.get(request.auth.organizationId, request.body.erasureCode)),
      );

      app.post(
        '/case/legalHold',
        {
          schema: {
            tags: ['cases'],
            summary: 'Put a case under a legal hold (it can be neither erased nor purged) with the reason',
            body: LegalHoldBody,
            response: { 200: envelope(CaseLegalHold) },
          },
          config: { ...erase, errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(
            request,
            await cases.setLegalHold(
              request.auth.organizationId,
              request.auth.userId,
              request.body.caseCode,
              request.body.reason,
            ),
          ),
      );

      app.post(
        '/case/legalHold/release',
        {
          schema: {
            tags: ['cases'],
            summary: "Release a case's legal hold",
            body: LegalHoldReleaseBody,
            response: { 200: envelope(CaseLegalHold) },
          },
          config: { ...erase, errors: ['NOT_FOUND'] },
        },
        async (request) =>
          ok(
            request,
            await cases.setLegalHold(request.auth.organizationId, request.auth.userId, request.body.caseCode, null),
          ),
      );
    },
  };
}
