import type { z } from 'zod';
import { API_BASE, ERRORS, type CatalogImportResult as CatalogImportResultSchema, type Envelope } from '@portal/contracts';
import { ApiError, CLIENT_CODES, http } from '../../../lib/http';
import { currentLanguage } from '../../../lib/i18n';
import { tokens } from '../../../lib/tokens';

export type CatalogImportResult = z.infer<typeof CatalogImportResultSchema>;

/** Uploads can take longer than an ordinary JSON call. */
const IMPORT_TIMEOUT_MS = 120_000;

/**
 * An OEM imports its product catalogue: multipart field "file" (xlsx or csv). All rows or none:
 * when `errors` is non-empty nothing was imported. lib/http only posts JSON, so this one request
 * uses fetch + FormData with the same auth and language headers and the same envelope handling
 * (code 200 → data, otherwise an ApiError carrying the server's code and message).
 */
export async function importCatalog(file: File): Promise<CatalogImportResult> {
  const sentToken = tokens.access();
  try {
    return await send(file, sentToken);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== ERRORS.TOKEN_INVALID.code) throw err;
    // Expired access token: an ordinary call through lib/http refreshes it (or signs out), then retry once.
    if (tokens.access() === sentToken) await http.post('equipment/listEquipment', { pageNum: 1, pageSize: 1 }, { silent: true }).catch(() => undefined);
    if (!tokens.access() || tokens.access() === sentToken) throw err;
    return send(file, tokens.access());
  }
}

async function send(file: File, accessToken: string): Promise<CatalogImportResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), IMPORT_TIMEOUT_MS);
  let res: Response;
  try {
    // No content-type: the browser sets multipart/form-data with its boundary.
    res = await fetch(`${API_BASE}/equipment/import_product_catalog`, {
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
  // Sliding session, as in lib/http: the server may renew the access token.
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
  return envelope.data as CatalogImportResult;
}
