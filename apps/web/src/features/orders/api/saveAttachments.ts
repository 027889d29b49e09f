import { postForm } from '../../../lib/http';
import type { OrderAttachment } from './types';

/**
 * Attaches files to an order (multipart: field orderCode, then the file parts). Silent: the caller shows
 * a business error itself.
 */
export function saveAttachments(orderCode: string, files: readonly File[]): Promise<{ list: OrderAttachment[] }> {
  const form = new FormData();
  // The server reads the fields in order: the order first, so it can check access before taking the files.
  form.append('orderCode', orderCode);
  for (const f of files) form.append('file', f, f.name);
  return postForm('order/save_attachments', form, { silent: true });
}
