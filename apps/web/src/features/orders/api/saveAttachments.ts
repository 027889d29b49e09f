import { API_BASE, ERRORS, type Envelope } from '@portal/contracts';
import { ApiError, CLIENT_CODES, http } from '../../../lib/http';
import { currentLanguage } from '../../../lib/i18n';
import { tokens } from '../../../lib/tokens';
import type { OrderAttachment } from './types';

/** Up to 20 MB a file: more time than an ordinary JSON call. */
const UPLOAD_TIMEOUT_MS = 120_000;

/**
 * Attaches files to an order (multipart: field orderCode, then the file parts). lib/http only posts JSON,
 * so this request uses fetch + FormData with the same auth and language headers and envelope handling
 * (code 200 → data, otherwise an ApiError with the server's code and message; the caller shows it).
 */
export async function saveAttachments(orderCode: string, files: readonly File[]): Promise<{ list: OrderAttachment[] }> {
  const sentToken = tokens.access();
  try {
    return await send(orderCode, files, sentToken);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== ERRORS.TOKEN_INVALID.code) throw err;
    // Expired access token: an ordinary call through lib/http refreshes it (or signs out), then retry once.
    if (tokens.access() === sentToken) await http.post('order/detail', { orderCode }, { silent: true }).catch(() => undefined);
    if (!tokens.access() || tokens.access() === sentToken) throw err;
    return send(orderCode, files, tokens.access());
  }
}

async function send(orderCode: string, files: readonly File[], accessToken: string): Promise<{ list: OrderAttachment[] }> {
  const form = new FormData();
  // The server reads the fields in order: the order first, so it can check access before taking the files.
  form.append('orderCode', orderCode);
  for (const f of files) form.append('file', f, f.name);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), UPLOAD_TIMEOUT_MS);
  let res: Response;
  try {
    // No content-type: the browser sets multipart/form-data with its boundary.
    res = await fetch(`${API_BASE}/order/save_attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, lang: currentLanguage() },
      body: form,
      signal: controller.signal,
    });
  } catch (err) {
    if (controller.signal.aborted) throw new ApiError(CLIENT_CODES.timeout, 'timeout', null, 0);
    throw new ApiError(CLIENT_CODES.network, err instanceof Error ? err.message : String(err), null, 0);
  } finally {
    clearTimeout(timer);
  }
  const renewed = res.headers.get('x-access-token');
  if (renewed && accessToken && tokens.access() === accessToken) tokens.set(renewed, tokens.refresh());
  let envelope: Envelope | null = null;
  try {
    const body: unknown = await res.json();
    if (body && typeof body === 'object' && typeof (body as Envelope).code === 'number') envelope = body as Envelope;
  } catch {
    /* not JSON: a transport failure */
  }
  if (!envelope && res.status === 401) throw new ApiError(ERRORS.TOKEN_INVALID.code, 'Unauthorized', null, res.status);
  if (!envelope) throw new ApiError(CLIENT_CODES.network, res.statusText || `HTTP ${res.status}`, null, res.status);
  if (envelope.code !== ERRORS.SUCCESS.code) throw new ApiError(envelope.code, envelope.msg, envelope.data, res.status);
  return envelope.data as { list: OrderAttachment[] };
}
