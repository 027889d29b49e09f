import type { z } from 'zod';
import type { CaseLegalHold, ErasureCertificate, ErasureList } from '@portal/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { caseKeys } from './keys';

export type Certificate = z.infer<typeof ErasureCertificate>;
export type LegalHoldState = z.infer<typeof CaseLegalHold>;

/** Erases the patient's cases for good; answers the certificate of what went. */
export const eraseCases = (caseCodes: string[], reason: string) =>
  http.write<Certificate>('case/erase', { caseCodes, reason });

export const setLegalHold = (caseCode: string, reason: string) =>
  http.write<LegalHoldState>('case/legalHold', { caseCode, reason });

export const releaseLegalHold = (caseCode: string) =>
  http.write<LegalHoldState>('case/legalHold/release', { caseCode });

export const ERASURES_PAGE_SIZE = 10;

/** The organization's erasure certificates, newest first. */
export const erasuresQuery = (pageNum: number) =>
  queryOptions({
    queryKey: caseKeys.erasures(pageNum),
    queryFn: () =>
      http.post<z.infer<typeof ErasureList>>('case/erasure/list', { pageNum, pageSize: ERASURES_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
