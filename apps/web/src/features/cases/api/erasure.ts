import type { z } from 'zod';
import type { CaseLegalHold, ErasureCertificate } from '@portal/contracts';
import { http } from '../../../lib/http';

export type Certificate = z.infer<typeof ErasureCertificate>;
export type LegalHoldState = z.infer<typeof CaseLegalHold>;

/** Erases the patient's cases for good; answers the certificate of what went. */
export const eraseCases = (caseCodes: string[], reason: string) =>
  http.write<Certificate>('case/erase', { caseCodes, reason });

export const setLegalHold = (caseCode: string, reason: string) =>
  http.write<LegalHoldState>('case/legalHold', { caseCode, reason });

export const releaseLegalHold = (caseCode: string) =>
  http.write<LegalHoldState>('case/legalHold/release', { caseCode });
