import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import * as tus from 'tus-js-client';
import { Upload, type UrlStorage } from 'tus-js-client';

// The Node build ships a file-backed URL store that the typings do not declare.
const FileUrlStorage = (tus as unknown as { FileUrlStorage: new (path: string) => UrlStorage }).FileUrlStorage;

/**
 * What a scanner's software does, through the device API only: activate, report its health,
 * create a case with the patient data, upload the scan files resumably, say the scan is complete.
 */
export class ScannerClient {
  constructor(
    private readonly baseUrl: string,
    private deviceToken?: string,
  ) {}

  private async call<T>(path: string, body: Record<string, unknown>): Promise<T> {
    const res = await fetch(`${this.baseUrl}/api/v2/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.deviceToken ? { authorization: `Bearer ${this.deviceToken}` } : {}),
      },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; msg: string; data: T };
    if (json.code !== 200) throw new Error(`${path}: ${json.msg} (${json.code})`);
    return json.data;
  }

  async activate(serialNumber: string, activationCode: string) {
    const data = await this.call<{ deviceToken: string; clinicName: string }>('device/activate', {
      serialNumber,
      activationCode,
    });
    this.deviceToken = data.deviceToken;
    return data;
  }

  heartbeat(batteryHealth: number) {
    return this.call('device/heartbeat', { batteryHealth });
  }

  createCase(c: {
    name: string;
    patientName: string;
    patientId?: string;
    birthDate?: string;
    scanDate?: string;
    treatments?: string[];
  }) {
    return this.call<{ caseCode: string }>('device/case/create', {
      treatments: [],
      scanDate: new Date().toISOString(),
      ...c,
    });
  }

  complete(caseCode: string) {
    return this.call<{ status: string }>('device/case/complete', { caseCode });
  }

  /**
   * Uploads one file; an interrupted upload (network, crash) resumes from the server's offset when
   * run again with the same state file.
   */
  upload(
    path: string,
    meta: { caseCode: string; jaw?: string },
    opts: {
      stateFile: string;
      onProgress?: (sent: number, total: number) => void;
      chunkSize?: number;
      signal?: AbortSignal;
    },
  ) {
    const size = statSync(path).size;
    return new Promise<void>((resolve, reject) => {
      const upload = new Upload(createReadStream(path), {
        endpoint: `${this.baseUrl}/api/v2/files/tus`,
        headers: { authorization: `Bearer ${this.deviceToken}` },
        metadata: { filename: basename(path), caseCode: meta.caseCode, ...(meta.jaw ? { jaw: meta.jaw } : {}) },
        uploadSize: size,
        chunkSize: opts.chunkSize ?? 8 * 1024 * 1024,
        retryDelays: [0, 1000, 3000, 5000],
        urlStorage: new FileUrlStorage(opts.stateFile),
        // Same file, same case: the same upload to resume.
        fingerprint: async () => `${meta.caseCode}:${basename(path)}:${size}`,
        removeFingerprintOnSuccess: true,
        onProgress: (sent, total) => opts.onProgress?.(sent, total),
        onError: reject,
        onSuccess: () => resolve(),
      });
      opts.signal?.addEventListener('abort', () => {
        void upload.abort().then(() => reject(new Error('interrupted')));
      });
      upload.findPreviousUploads().then((previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        upload.start();
      }, reject);
    });
  }
}
