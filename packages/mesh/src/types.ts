/** Browser- and node-safe core types of @portal/mesh. Units: millimetres (1 unit = 1 mm). */

export type MeshFormat = 'stl' | 'ply' | 'obj';

/**
 * A triangle mesh as parsed or generated.
 * - `positions`: x y z per vertex.
 * - `indices`: three vertex indices per triangle, or null for unindexed triangles (every 3 vertices form one).
 * - `colors`: RGB (0–255) per vertex, or null.
 */
export interface MeshData {
  positions: Float32Array;
  indices: Uint32Array | null;
  colors: Uint8Array | null;
}

export interface IndexedMesh extends MeshData {
  indices: Uint32Array;
}

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

/** Thrown by every parser/decoder on truncated, malformed or oversized input. `reason` is a short English phrase. */
export class MeshParseError extends Error {
  readonly reason: string;
  readonly format: MeshFormat | 'compact' | 'unknown';
  constructor(format: MeshFormat | 'compact' | 'unknown', reason: string) {
    super(`${format}: ${reason}`);
    this.name = 'MeshParseError';
    this.format = format;
    this.reason = reason;
  }
}

export function triangleCount(mesh: MeshData): number {
  return mesh.indices ? mesh.indices.length / 3 : mesh.positions.length / 9;
}
