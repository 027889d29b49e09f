/** Compact container decoder (browser- and node-safe); no encoder code, so viewers stay small. */
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { MeshParseError, type Bounds } from './types.js';
import {
  COMPACT_HEADER_BYTES,
  COMPACT_VERSION,
  FLAG_COLORS,
  FLAG_DEFLATE,
  FLAG_WIDE,
  pipeBytes,
} from './compact-format.js';

let decoderReady = false;
void MeshoptDecoder.ready.then(
  () => {
    decoderReady = true;
  },
  () => {},
);

export interface DecodedMesh {
  positions: Float32Array;
  indices: Uint32Array;
  colors: Uint8Array | null;
  bounds: Bounds;
}

/** True when the bytes start with the compact container magic. */
export function isCompactMesh(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4d && bytes[2] === 0x43 && bytes[3] === 0x31;
}

const failCompact = (reason: string): never => {
  throw new MeshParseError('compact', reason);
};

/** Decodes a compact container (deflated or not). Throws MeshParseError on malformed input. */
export async function decodeCompactMesh(input: ArrayBuffer | Uint8Array): Promise<DecodedMesh> {
  if (!decoderReady) {
    await MeshoptDecoder.ready;
    decoderReady = true;
  }
  let bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.length < COMPACT_HEADER_BYTES) failCompact('file too short');
  if (!isCompactMesh(bytes)) failCompact('bad magic');
  if (bytes[5]! & FLAG_DEFLATE) {
    const rawLen = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(84, true);
    const zLen = bytes.length - COMPACT_HEADER_BYTES;
    if (rawLen > zLen * 1100 + 1024) failCompact('counts do not match data size');
    let payload: Uint8Array;
    try {
      payload = await pipeBytes(bytes.subarray(COMPACT_HEADER_BYTES), 'decompress', rawLen);
    } catch {
      return failCompact('corrupt or truncated deflate stream');
    }
    if (payload.length !== rawLen) failCompact('truncated');
    const joined = new Uint8Array(COMPACT_HEADER_BYTES + rawLen);
    joined.set(bytes.subarray(0, COMPACT_HEADER_BYTES));
    joined.set(payload, COMPACT_HEADER_BYTES);
    joined[5] = joined[5]! & ~FLAG_DEFLATE;
    bytes = joined;
  }
  return decodeCompactMeshSync(bytes);
}

/** Synchronous decode of a container without the deflate stage; the decoder must be ready (initMeshCodec). */
export function decodeCompactMeshSync(input: ArrayBuffer | Uint8Array): DecodedMesh {
  const fail = failCompact;
  if (!decoderReady)
    throw new Error('@portal/mesh: await decodeCompactMesh() once (or initMeshCodec) before decodeCompactMeshSync()');
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.length < COMPACT_HEADER_BYTES) fail('file too short');
  if (bytes[5]! & FLAG_DEFLATE) fail('deflated container: use decodeCompactMesh');
  if (!isCompactMesh(bytes)) fail('bad magic');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint8(4);
  if (version !== COMPACT_VERSION) fail(`unsupported version ${version}`);
  const flags = dv.getUint8(5);
  const vcount = dv.getUint32(8, true);
  const icount = dv.getUint32(12, true);
  const origin = [dv.getFloat64(16, true), dv.getFloat64(24, true), dv.getFloat64(32, true)] as const;
  const step = dv.getFloat64(40, true);
  const max: [number, number, number] = [dv.getFloat64(48, true), dv.getFloat64(56, true), dv.getFloat64(64, true)];
  const posLen = dv.getUint32(72, true),
    idxLen = dv.getUint32(76, true),
    colLen = dv.getUint32(80, true);
  const pad = (n: number) => (n + 3) & ~3;
  if (COMPACT_HEADER_BYTES + pad(posLen) + pad(idxLen) + pad(colLen) > bytes.length) fail('truncated');
  if (icount % 3 !== 0 || icount === 0 || vcount === 0) fail('bad counts');
  if (!(step > 0 && step <= 1) || !origin.every(Number.isFinite)) fail('bad quantisation');
  // Encoded streams can't be smaller than a fraction of the decoded size: reject absurd counts before allocating.
  // (meshopt vertex codec: ≥ ~1/32 of raw with header; index codec ≥ 1 byte per 2 triangles in practice.)
  if (vcount > (posLen + 64) * 32 || icount / 3 > (idxLen + 16) * 8) fail('counts do not match data size');
  const wide = (flags & FLAG_WIDE) !== 0;
  const stride = wide ? 12 : 8;
  let o = COMPACT_HEADER_BYTES;
  const raw = new Uint8Array(vcount * stride);
  try {
    MeshoptDecoder.decodeVertexBuffer(raw, vcount, stride, bytes.subarray(o, o + posLen));
  } catch {
    fail('corrupt position stream');
  }
  o += pad(posLen);
  const indices = new Uint32Array(icount);
  try {
    MeshoptDecoder.decodeIndexBuffer(new Uint8Array(indices.buffer), icount, 4, bytes.subarray(o, o + idxLen));
  } catch {
    fail('corrupt index stream');
  }
  o += pad(idxLen);
  for (let i = 0; i < icount; i++) if (indices[i]! >= vcount) fail('index out of range');
  const positions = new Float32Array(vcount * 3);
  if (wide) {
    const q = new Uint32Array(raw.buffer);
    for (let v = 0; v < vcount * 3; v += 3) {
      positions[v] = origin[0] + q[v]! * step;
      positions[v + 1] = origin[1] + q[v + 1]! * step;
      positions[v + 2] = origin[2] + q[v + 2]! * step;
    }
  } else {
    const q = new Uint16Array(raw.buffer);
    for (let v = 0; v < vcount; v++) {
      positions[v * 3] = origin[0] + q[v * 4]! * step;
      positions[v * 3 + 1] = origin[1] + q[v * 4 + 1]! * step;
      positions[v * 3 + 2] = origin[2] + q[v * 4 + 2]! * step;
    }
  }
  let colors: Uint8Array | null = null;
  if (flags & FLAG_COLORS) {
    if (vcount > (colLen + 64) * 64) fail('counts do not match data size');
    const c4 = new Uint8Array(vcount * 4);
    try {
      MeshoptDecoder.decodeVertexBuffer(c4, vcount, 4, bytes.subarray(o, o + colLen));
    } catch {
      fail('corrupt colour stream');
    }
    colors = new Uint8Array(vcount * 3);
    for (let v = 0; v < vcount; v++) {
      colors[v * 3] = c4[v * 4]!;
      colors[v * 3 + 1] = c4[v * 4 + 1]!;
      colors[v * 3 + 2] = c4[v * 4 + 2]!;
    }
  }
  return { positions, indices, colors, bounds: { min: [origin[0], origin[1], origin[2]], max } };
}
