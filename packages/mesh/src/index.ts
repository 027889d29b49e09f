/** @portal/mesh — browser- and node-safe entry (no node: imports). Node-only helpers: '@portal/mesh/node'. */
export { MeshParseError, triangleCount } from './types.js';
export type { Bounds, IndexedMesh, MeshData, MeshFormat } from './types.js';
export { parseStl, parseBinaryStl, parseAsciiStl, isBinaryStlLayout } from './parse/stl.js';
export { parsePly } from './parse/ply.js';
export { parseObj } from './parse/obj.js';
export { detectMeshFormat, parseMesh } from './detect.js';
export { computeBounds, computeVertexNormals, weldMesh } from './geometry.js';
export type { WeldResult } from './geometry.js';
export { COMPACT_HEADER_BYTES, COMPACT_MAGIC, COMPACT_VERSION, MAX_QUANT_STEP } from './compact-format.js';
export { compactMesh, compactMeshDetailed, encodeCompactRaw, initMeshCodec } from './compact-encode.js';
export type { CompactOptions, CompactResult, CompactStats } from './compact-encode.js';
export { decodeCompactMesh, decodeCompactMeshSync, isCompactMesh } from './compact-decode.js';
export type { DecodedMesh } from './compact-decode.js';
export { createRng, generateArch, generateBite } from './generate.js';
export type { ArchOptions } from './generate.js';
export { toAsciiStl, toBinaryStl, toObj, toPly } from './writers.js';
