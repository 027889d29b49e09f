import { Upload, type DetailedError } from 'tus-js-client';
import { API_BASE } from '@portal/contracts';
import { tokens } from '../../../lib/tokens';
import { isFinalUploadStatus, uploadFailure, type UploadFailure } from './upload';

const TUS_ENDPOINT = `${API_BASE}/files/tus`;
const CHUNK_SIZE = 8 * 1024 * 1024;
const RETRY_DELAYS = [0, 1000, 3000, 5000];

export interface CaseUploadHandlers {
  onProgress?: (sent: number, total: number) => void;
  onSuccess: () => void;
  onError: (failure: UploadFailure) => void;
}

/** A resumable upload (tus) of one file into a case, not started yet; `jaw` only for a scan. */
export function caseUpload(caseCode: string, file: File, jaw: string | null, handlers: CaseUploadHandlers): Upload {
  const metadata: Record<string, string> = { caseCode, filename: file.name };
  if (jaw) metadata.jaw = jaw;
  return new Upload(file, {
    endpoint: TUS_ENDPOINT,
    chunkSize: CHUNK_SIZE,
    retryDelays: RETRY_DELAYS,
    metadata,
    removeFingerprintOnSuccess: true,
    // Set on every request (not in `headers`, which would send it twice): the access token may
    // have been renewed since the upload started.
    onBeforeRequest: (req) => {
      req.setHeader('authorization', `Bearer ${tokens.access()}`);
    },
    onAfterResponse: (_req, res) => {
      const renewed = res.getHeader('x-access-token');
      if (renewed && renewed !== tokens.access()) tokens.set(renewed, tokens.refresh());
    },
    onShouldRetry: (err) => !isFinalUploadStatus(err.originalResponse?.getStatus() ?? 0),
    onProgress: handlers.onProgress,
    onSuccess: handlers.onSuccess,
    onError: (err) => {
      const res = (err as DetailedError).originalResponse ?? null;
      handlers.onError(uploadFailure(res?.getStatus() ?? null, res?.getBody() ?? null));
    },
  });
}

/** Puts a file the page made itself (a 3D screenshot) into a case; settles once the server holds it as a case file. */
export function uploadIntoCase(caseCode: string, file: File): Promise<void> {
  return new Promise((resolve, reject: (failure: UploadFailure) => void) =>
    caseUpload(caseCode, file, null, { onSuccess: resolve, onError: reject }).start(),
  );
}
