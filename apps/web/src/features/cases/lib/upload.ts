import { ERRORS, FILE_FORMATS, kindOfFormat, type FileFormat } from '@portal/contracts';

/** Formats the upload accepts (§3); also the `accept` attribute of the file input. */
export const ACCEPTED_FORMATS: readonly FileFormat[] = FILE_FORMATS;
export const ACCEPT_ATTR = FILE_FORMATS.map((f) => `.${f}`).join(',');

export function formatOfName(name: string): FileFormat | null {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return null;
  const ext = name.slice(dot + 1).toLowerCase();
  return (FILE_FORMATS as readonly string[]).includes(ext) ? (ext as FileFormat) : null;
}

export function isModelName(name: string): boolean {
  const f = formatOfName(name);
  return f !== null && kindOfFormat(f) === 'model';
}

/** Describes why an upload failed: a server message when one came back, else a key of the cases namespace. */
export type UploadFailure = { msg: string } | { key: string };

/**
 * Maps a refused tus request (HTTP status + body) to what the screen shows. The server answers
 * 4xx/5xx with a JSON {code,msg}; its msg wins. Without one, the status picks a known text.
 */
export function uploadFailure(status: number | null | undefined, body: string | null | undefined): UploadFailure {
  if (body) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === 'object') {
        const { msg } = parsed as { msg?: unknown };
        if (typeof msg === 'string' && msg.trim()) return { msg };
      }
    } catch {
      /* not JSON */
    }
  }
  switch (status) {
    case ERRORS.PAYLOAD_TOO_LARGE.status:
      return { key: 'upload.error.tooLarge' };
    case ERRORS.UNSUPPORTED_MEDIA_TYPE.status:
      return { key: 'upload.error.format' };
    case ERRORS.INSUFFICIENT_STORAGE.status:
      return { key: 'upload.error.storage' };
    case 401:
    case 403:
      return { key: 'upload.error.denied' };
    default:
      return { key: 'upload.error.generic' };
  }
}

/** Refusals that will not change on a retry: too large, wrong format, no space, no access. */
export function isFinalUploadStatus(status: number): boolean {
  return status === 401 || status === 403 || status === 404 || status === 413 || status === 415 || status === 507;
}
