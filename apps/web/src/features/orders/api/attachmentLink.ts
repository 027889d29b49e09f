import { http } from '../../../lib/http';

/** A signed, short-lived download URL of an order attachment. */
export const attachmentLink = (attachmentCode: string) =>
  http.post<{ url: string; expiresAt: string }>('order/attachmentLink', { attachmentCode });
