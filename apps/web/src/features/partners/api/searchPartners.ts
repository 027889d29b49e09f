import { http } from '../../../lib/http';
import type { PartnerTarget } from './types';

/** Laboratories for a clinic, clinics for a laboratory. */
export const searchPartners = (keyword: string) => http.post<{ list: PartnerTarget[] }>('partner/search', { keyword });
