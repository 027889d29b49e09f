/**
 * Shared definitions of the compact viewer container ("PMC1", see README.md): welded, quantised (≤ 5 µm grid), cache-optimised,
 * meshoptimizer-encoded vertex/index/colour streams. Browser- and node-safe.
 */

export const COMPACT_MAGIC = 0x31434d50; // "PMC1" read as little-endian uint32
export const COMPACT_VERSION = 1;
export const COMPACT_HEADER_BYTES = 88;
/** Default (and largest allowed) quantisation step in mesh units: 0.005 mm = 5 µm. */
export const MAX_QUANT_STEP = 0.005;

export const FLAG_COLORS = 1;
export const FLAG_WIDE = 2; // 32-bit position components (mesh wider than 65535 steps)
export const FLAG_DEFLATE = 4; // payload after the header is one zlib ('deflate') stream

/** Runs bytes through a native zlib (De)CompressionStream; stops with an error once the output exceeds `limit`. */
export async function pipeBytes(
  data: Uint8Array,
  mode: 'compress' | 'decompress',
  limit = Infinity,
): Promise<Uint8Array> {
  const ts = mode === 'compress' ? new CompressionStream('deflate') : new DecompressionStream('deflate');
  // (DOM and node typings disagree on the chunk types; both accept Uint8Array in and give Uint8Array out.)
  const writer = (ts.writable as unknown as WritableStream<Uint8Array>).getWriter();
  writer.write(data as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const reader = (ts.readable as unknown as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new Error('output exceeds limit');
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
