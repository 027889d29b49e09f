/**
 * Fetches and decodes scans off the main thread: compact file first (falls back to the original on 404/409,
 * when missing, or when the compact file is unreadable), then normals, bounds and linear colours.
 * The typed arrays are transferred (no copy) straight to the render worker on the port given by 'connect'; the page
 * only gets the figures (tens of MB arriving on its thread used to set off major garbage collections there).
 */
import {
  MeshParseError,
  computeBounds,
  computeVertexNormals,
  decodeCompactMesh,
  detectMeshFormat,
  isCompactMesh,
  parseMesh,
  weldMesh,
} from '@portal/mesh';
import type { LoadedMesh, RenderRequest, SerializableInit, WorkerRequest, WorkerResponse } from './types';

const SRGB_TO_LINEAR16 = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  const v = i / 255;
  SRGB_TO_LINEAR16[i] = Math.round((v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4) * 65535);
}

const controllers = new Map<number, AbortController>();
const post = (msg: WorkerResponse) => (self as unknown as Worker).postMessage(msg);
let renderer: MessagePort | null = null;

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

async function download(
  url: string,
  init: SerializableInit,
  signal: AbortSignal,
  reqId: number,
  reportProgress: boolean,
): Promise<Uint8Array> {
  const res = await fetch(url, {
    headers: init.headers,
    credentials: init.credentials,
    mode: init.mode,
    cache: init.cache,
    referrerPolicy: init.referrerPolicy,
    signal,
  });
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new HttpError(res.status);
  }
  const total = Number(res.headers.get('content-length')) || 0;
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  // Pre-size when the length is known (bounded: a lying header only costs a re-allocation).
  let buf = new Uint8Array(total > 0 && total < 2 ** 31 ? total : 1 << 20);
  let n = 0;
  let lastReport = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (n + value.length > buf.length) {
      const grown = new Uint8Array(Math.max(buf.length * 2, n + value.length));
      grown.set(buf.subarray(0, n));
      buf = grown;
    }
    buf.set(value, n);
    n += value.length;
    const now = performance.now();
    if (reportProgress && now - lastReport > 80) {
      lastReport = now;
      post({ type: 'progress', reqId, loaded: n, total });
    }
  }
  if (reportProgress) post({ type: 'progress', reqId, loaded: n, total: Math.max(total, n) });
  return n === buf.length ? buf : buf.slice(0, n);
}

/** sRGB bytes (RGB) → linear RGBA16 (4 components: a native vertex format everywhere, unlike 3×16 bit). */
function toLinearColors(c: Uint8Array | null): Uint16Array | null {
  if (!c) return null;
  const n = c.length / 3;
  const out = new Uint16Array(n * 4);
  for (let v = 0; v < n; v++) {
    out[v * 4] = SRGB_TO_LINEAR16[c[v * 3]!]!;
    out[v * 4 + 1] = SRGB_TO_LINEAR16[c[v * 3 + 1]!]!;
    out[v * 4 + 2] = SRGB_TO_LINEAR16[c[v * 3 + 2]!]!;
    out[v * 4 + 3] = 65535;
  }
  return out;
}

async function load(req: Extract<WorkerRequest, { type: 'load' }>, signal: AbortSignal): Promise<LoadedMesh> {
  if (req.compactUrl) {
    let bytes: Uint8Array | null = null;
    try {
      bytes = await download(req.compactUrl, req.init, signal, req.reqId, true);
    } catch (e) {
      if (!(e instanceof HttpError && (e.status === 404 || e.status === 409))) throw e;
    }
    if (bytes && isCompactMesh(bytes)) {
      try {
        const t0 = performance.now();
        const m = await decodeCompactMesh(bytes);
        const normals = computeVertexNormals(m.positions, m.indices);
        return {
          positions: m.positions,
          normals,
          indices: m.indices,
          colors: toLinearColors(m.colors),
          bounds: m.bounds,
          triangles: m.indices.length / 3,
          source: 'compact',
          decodeMs: performance.now() - t0,
        };
      } catch (e) {
        if (!(e instanceof MeshParseError)) throw e;
        // unreadable compact file: fall back to the original below
      }
    }
  }
  const bytes = await download(req.originalUrl, req.init, signal, req.reqId, true);
  const t0 = performance.now();
  const format = detectMeshFormat(bytes) ?? req.format;
  const parsed = parseMesh(bytes, format);
  // STL (unindexed) is welded so shading is smooth and the GPU holds each vertex once.
  const mesh = parsed.indices
    ? { positions: parsed.positions, indices: parsed.indices, colors: parsed.colors }
    : weldMesh(parsed).mesh;
  const normals = computeVertexNormals(mesh.positions, mesh.indices);
  return {
    positions: mesh.positions,
    normals,
    indices: mesh.indices,
    colors: toLinearColors(mesh.colors),
    bounds: computeBounds(mesh.positions),
    triangles: mesh.indices.length / 3,
    source: 'original',
    decodeMs: performance.now() - t0,
  };
}

self.onmessage = (ev: MessageEvent<WorkerRequest>) => {
  const req = ev.data;
  if (req.type === 'connect') {
    renderer = req.renderer;
    return;
  }
  if (req.type === 'cancel') {
    controllers.get(req.reqId)?.abort();
    controllers.delete(req.reqId);
    return;
  }
  const ctl = new AbortController();
  controllers.set(req.reqId, ctl);
  load(req, ctl.signal)
    .then(
      ({ positions, normals, indices, colors, bounds, triangles, source, decodeMs }) => {
        if (ctl.signal.aborted) return;
        const transfer: Transferable[] = [positions.buffer, normals.buffer, indices.buffer];
        if (colors) transfer.push(colors.buffer);
        renderer?.postMessage(
          { type: 'add', ...req.target, mesh: { positions, normals, indices, colors, bounds } } satisfies RenderRequest,
          transfer,
        );
        post({ type: 'done', reqId: req.reqId, bounds, triangles, source, decodeMs });
      },
      (e: unknown) => {
        if (ctl.signal.aborted) return;
        const message =
          e instanceof MeshParseError
            ? `parse: ${e.reason}`
            : e instanceof HttpError
              ? e.message
              : e instanceof Error
                ? e.message
                : String(e);
        post({ type: 'error', reqId: req.reqId, message, status: e instanceof HttpError ? e.status : undefined });
      },
    )
    .finally(() => controllers.delete(req.reqId));
};
