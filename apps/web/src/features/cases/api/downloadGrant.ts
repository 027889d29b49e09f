import { http } from '../../../lib/http';
import type { Grant } from './types';

/** A signed, short-lived URL for the original (and the compact viewer version of a model). */
export const downloadGrant = (fileCode: string) =>
  http.post<Grant>('file/downloadGrant', { fileCode }, { silent: true });
