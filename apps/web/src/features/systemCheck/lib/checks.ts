import { API_BASE } from '@portal/contracts';

export interface GraphicsCheck {
  /** A WebGL2 context on a page canvas. */
  webgl2: boolean;
  /** A canvas can hand its drawing to a worker (what the 3D viewer needs). */
  transferToWorker: boolean;
  /** A WebGL2 context on an OffscreenCanvas inside a worker. */
  workerWebgl2: boolean;
  renderer: string | null;
}

function pageWebgl2(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2');
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    return Boolean(gl);
  } catch {
    return false;
  }
}

const WORKER_TIMEOUT_MS = 5_000;

function workerWebgl2(): Promise<{ webgl2: boolean; renderer: string | null }> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./probe.worker.ts', import.meta.url), { type: 'module' });
    } catch {
      resolve({ webgl2: false, renderer: null });
      return;
    }
    const done = (answer: { webgl2: boolean; renderer: string | null }) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(answer);
    };
    const timer = setTimeout(() => done({ webgl2: false, renderer: null }), WORKER_TIMEOUT_MS);
    worker.onmessage = (e: MessageEvent<{ offscreen: boolean; webgl2: boolean; renderer: string | null }>) =>
      done({ webgl2: e.data.offscreen && e.data.webgl2, renderer: e.data.renderer });
    worker.onerror = () => done({ webgl2: false, renderer: null });
  });
}

/** What the 3D viewer needs of this browser, asked the way the viewer asks. */
export async function checkGraphics(): Promise<GraphicsCheck> {
  const transferToWorker =
    typeof HTMLCanvasElement !== 'undefined' && 'transferControlToOffscreen' in HTMLCanvasElement.prototype;
  const inWorker = await workerWebgl2();
  return { webgl2: pageWebgl2(), transferToWorker, workerWebgl2: inWorker.webgl2, renderer: inWorker.renderer };
}

/** The test moves 4 MiB down and 2 MiB up: enough to see the line's speed, little enough for a phone. */
export const DOWNLOAD_BYTES = 4 * 1024 * 1024;
export const UPLOAD_BYTES = 2 * 1024 * 1024;

export interface SpeedResult {
  bytes: number;
  ms: number;
  /** Megabits per second. */
  mbps: number;
}

const result = (bytes: number, ms: number): SpeedResult => ({
  bytes,
  ms: Math.round(ms),
  mbps: Math.round(((bytes * 8) / 1_000_000 / Math.max(ms, 1)) * 1000 * 10) / 10,
});

export async function measureDownload(bytes = DOWNLOAD_BYTES): Promise<SpeedResult> {
  const started = performance.now();
  const res = await fetch(`${API_BASE}/common/speed_test/download?bytes=${bytes}`, { cache: 'no-store' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = await res.arrayBuffer();
  return result(body.byteLength, performance.now() - started);
}

export async function measureUpload(bytes = UPLOAD_BYTES): Promise<SpeedResult> {
  // Random content, so nothing on the way can compress it.
  const data = new Uint8Array(bytes);
  for (let at = 0; at < bytes; at += 65_536) crypto.getRandomValues(data.subarray(at, Math.min(at + 65_536, bytes)));
  const started = performance.now();
  const res = await fetch(`${API_BASE}/common/speed_test/upload`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: data,
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const answer = (await res.json()) as { data: { bytes: number } };
  return result(answer.data.bytes, performance.now() - started);
}
