/** Public types of the 3D viewer and the worker protocol. No three.js import here (safe for any bundle). */

export type ViewerJaw = 'upper' | 'lower' | 'bite';

export interface ModelViewerModel {
  id: string;
  label: string;
  jaw?: ViewerJaw;
  /** The compact viewer file (PMC1); optional: the original is used when missing, 404 or 409. */
  compactUrl?: string;
  originalUrl: string;
  format: 'stl' | 'ply' | 'obj';
}

export interface ModelViewerProps {
  models: ModelViewerModel[];
  /** Translation function; keys: viewer.loading, viewer.failed, viewer.fit, viewer.screenshot, viewer.show. */
  t: (key: string) => string;
  /** Applied to every fetch (headers such as Authorization, credentials …). The signal is ignored. */
  requestInit?: RequestInit;
  /** CSS height of the viewer (default 480). */
  height?: number | string;
  className?: string;
  /** Called once per model that failed to load. */
  onError?: (modelId: string, message: string) => void;
  /** File name prefix of screenshots (default "scan"). */
  screenshotName?: string;
}

export interface Box3Like {
  min: [number, number, number];
  max: [number, number, number];
}

/** Structured-clone-safe subset of RequestInit. */
export interface SerializableInit {
  headers: [string, string][];
  credentials?: RequestCredentials;
  mode?: RequestMode;
  cache?: RequestCache;
  referrerPolicy?: ReferrerPolicy;
}

export type WorkerRequest =
  | { type: 'load'; reqId: number; compactUrl?: string; originalUrl: string; format: 'stl' | 'ply' | 'obj'; init: SerializableInit }
  | { type: 'cancel'; reqId: number };

export interface LoadedMesh {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  /** Linear-light RGBA per vertex (alpha 1), normalised uint16, converted from sRGB in the worker; or null. */
  colors: Uint16Array | null;
  bounds: Box3Like;
  triangles: number;
  source: 'compact' | 'original';
  decodeMs: number;
}

export type WorkerResponse =
  | { type: 'progress'; reqId: number; loaded: number; total: number }
  | ({ type: 'done'; reqId: number } & LoadedMesh)
  | { type: 'error'; reqId: number; message: string; status?: number };
