/** Node-only helpers (file I/O). Import from '@portal/mesh/node'; never from browser code. */
import { readFile, writeFile } from 'node:fs/promises';
import { detectMeshFormat, parseMesh } from './detect.js';
import { compactMeshDetailed, type CompactOptions, type CompactStats } from './compact-encode.js';
import { MeshParseError, type MeshData, type MeshFormat } from './types.js';

/** Reads and parses a mesh file; the format is detected by content. */
export async function readMeshFile(path: string): Promise<{ format: MeshFormat; mesh: MeshData; bytes: number }> {
  const buf = await readFile(path);
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  const format = detectMeshFormat(bytes);
  if (!format) throw new MeshParseError('unknown', 'not an STL, PLY or OBJ file');
  return { format, mesh: parseMesh(bytes, format), bytes: bytes.length };
}

/** Reads a mesh file, writes its compact viewer file, and returns sizes and timings. */
export async function compactMeshFile(
  inputPath: string,
  outputPath: string,
  opts: CompactOptions = {},
): Promise<{
  format: MeshFormat;
  inputBytes: number;
  outputBytes: number;
  parseMs: number;
  encodeMs: number;
  stats: CompactStats;
}> {
  const t0 = performance.now();
  const { format, mesh, bytes } = await readMeshFile(inputPath);
  const t1 = performance.now();
  const r = await compactMeshDetailed(mesh, opts);
  const t2 = performance.now();
  await writeFile(outputPath, r.bytes);
  return {
    format,
    inputBytes: bytes,
    outputBytes: r.bytes.length,
    parseMs: t1 - t0,
    encodeMs: t2 - t1,
    stats: r.stats,
  };
}
