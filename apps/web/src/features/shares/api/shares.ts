import type { Language, ShareAccessKind, ShareItem, ShareResourceType, ShareView } from '@portal/contracts';
import { http } from '../../../lib/http';

export type ShareableType = ShareResourceType;
export type { ShareItem, ShareView };
export interface ShareAccessEntry {
  at: string;
  kind: ShareAccessKind;
  userAgent: string;
  addressHash: string;
}

export interface CreateShareInput {
  resourceType: ShareableType;
  resourceCode: string;
  password?: string;
  expiresInDays: 1 | 7 | 30 | null;
  showPatientName: boolean;
}

export const createShare = (body: CreateShareInput) => http.write<ShareItem>('share/create', body);
export const listShares = (resourceType: ShareableType, resourceCode: string) =>
  http.post<{ list: ShareItem[] }>('share/list', { resourceType, resourceCode });
export const shareAccessLog = (shareCode: string, pageNum: number, pageSize: number) =>
  http.post<{ total: number; list: ShareAccessEntry[] }>('share/accessLog', { shareCode, pageNum, pageSize });
export const revokeShare = (shareCode: string) => http.write<null>('share/revoke', { shareCode });
/** Mails a share's link; `name` is the recipient's, for the greeting (left out, the mail greets without one). */
export const mailShare = (shareCode: string, to: { email: string; name?: string; language: Language }) =>
  http.write<null>('share/sendMail', {
    shareCode,
    email: to.email,
    name: to.name?.trim() || undefined,
    language: to.language,
  });

// Public calls: the visitor is not signed in; the page answers their errors itself.
export const openShare = (code: string, sign: string | undefined) =>
  http.post<ShareView>('share/open', { code, sign }, { silent: true, auth: false });
export const unlockShare = (code: string, password: string) =>
  http.post<{ sign: string }>('share/unlock', { code, password }, { silent: true, auth: false });
