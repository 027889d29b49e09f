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
  /**
   * Translation function; keys: viewer.loading, viewer.failed, viewer.fit, viewer.screenshot, viewer.show,
   * viewer.measure, viewer.measureHint, viewer.distance.
   */
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
  /**
   * Offers report snapshots: a choice of view (upper, lower, bite: which scans show and where from) and a button
   * that hands the current frame as a PNG to this callback instead of downloading it. Keys: viewer.view,
   * viewer.upper, viewer.lower, viewer.bite, viewer.snapshot.
   */
  onSnapshot?: (png: Blob, view: ViewerJaw) => void | Promise<void>;
  /** Offers "Save to case" (key viewer.saveToCase): the current frame as a PNG file, for the caller to keep. */
  onSaveScreenshot?: (png: File) => Promise<void>;
  /** Notes pinned to the scans, numbered; shown as pins and listed under the viewer. */
  annotations?: ViewerAnnotation[];
  /** Offers "Annotate": a click on a scan, then a note, pins it there. */
  onAnnotate?: (note: { modelId: string; point: Point3; text: string }) => Promise<void>;
  onDeleteAnnotation?: (id: string) => Promise<void>;
  /** Margin lines around prepared teeth, drawn as loops on the scans and listed under the viewer. */
  marginLines?: ViewerMarginLine[];
  /** Offers "Margin line" for these teeth: clicks around the preparation, then saved for the chosen tooth. */
  marginTeeth?: { value: number; label: string }[];
  onSaveMarginLine?: (line: { tooth: number; modelId: string; points: Point3[] }) => Promise<void>;
  onDeleteMarginLine?: (tooth: number) => Promise<void>;
}

/** What a page lets the reader do in the viewer beyond looking: keep screenshots, pin notes, draw margin lines. */
export type ViewerTools = Pick<
  ModelViewerProps,
  | 'onSaveScreenshot'
  | 'annotations'
  | 'onAnnotate'
  | 'onDeleteAnnotation'
  | 'marginLines'
  | 'marginTeeth'
  | 'onSaveMarginLine'
  | 'onDeleteMarginLine'
>;

export interface ViewerAnnotation {
  id: string;
  modelId: string;
  point: Point3;
  number: number;
  text: string;
  /** Who pinned it (null: a former user). */
  author?: string | null;
}

export interface ViewerMarginLine {
  tooth: number;
  /** The tooth as the reader numbers teeth (FDI or Universal). */
  label: string;
  modelId: string;
  points: Point3[];
  author?: string | null;
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

/** Which viewer mesh a load becomes; `gen` is the renderer's load generation (older ones are dropped). */
export interface MeshTarget {
  id: string;
  jaw?: ViewerJaw;
  gen: number;
}

/** Page → decode worker. 'connect' hands it the port on which it sends decoded meshes straight to the renderer. */
export type WorkerRequest =
  | { type: 'connect'; renderer: MessagePort }
  | {
      type: 'load';
      reqId: number;
      target: MeshTarget;
      compactUrl?: string;
      originalUrl: string;
      format: 'stl' | 'ply' | 'obj';
      init: SerializableInit;
    }
  | { type: 'cancel'; reqId: number };

/** What the renderer needs of a decoded scan (typed arrays, transferred). */
export interface MeshArrays {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  /** Linear-light RGBA per vertex (alpha 1), normalised uint16, converted from sRGB in the worker; or null. */
  colors: Uint16Array | null;
  bounds: Box3Like;
}

export interface LoadedMesh extends MeshArrays {
  triangles: number;
  source: 'compact' | 'original';
  decodeMs: number;
}

/** Decode worker → page: progress and the result without its arrays (those go to the renderer, never through the page). */
export type WorkerResponse =
  | { type: 'progress'; reqId: number; loaded: number; total: number }
  | {
      type: 'done';
      reqId: number;
      bounds: Box3Like;
      triangles: number;
      source: 'compact' | 'original';
      decodeMs: number;
    }
  | { type: 'error'; reqId: number; message: string; status?: number };

/** The camera as the page's controls left it; the renderer draws from there. */
export interface CameraPose {
  position: [number, number, number];
  quaternion: [number, number, number, number];
  fov: number;
  aspect: number;
  near: number;
  far: number;
}

/** To render.worker.ts from the page, except 'add', which comes from the decode worker on the port given in 'init'. Sizes in CSS pixels. */
export type RenderRequest =
  | { type: 'init'; canvas: OffscreenCanvas; decoder: MessagePort }
  | { type: 'size'; width: number; height: number; pixelRatio: number }
  | { type: 'camera'; pose: CameraPose }
  | ({ type: 'add'; mesh: MeshArrays } & MeshTarget)
  | { type: 'visible'; id: string; visible: boolean }
  | { type: 'clear'; gen: number }
  | { type: 'screenshot'; reqId: number }
  /** The point of the visible scans under a spot of the canvas (normalised device coordinates, -1 to 1). */
  | { type: 'pick'; reqId: number; x: number; y: number }
  /** Points the user marked on the scans, drawn as dots joined by a line (a measurement); empty clears them. */
  | { type: 'marks'; points: Point3[] }
  /** Cuts the scans along a plane and draws where they cross it (the profile); null ends the section. */
  | { type: 'section'; plane: SectionPlane | null }
  /** Numbered pins on the scans (annotations), each shown while its model is. */
  | { type: 'pins'; pins: ViewerPin[] }
  /** Lines drawn on the scans (margin lines), each shown while its model is. */
  | { type: 'lines'; lines: ViewerPolyline[] }
  | { type: 'dispose' };

export type Point3 = [number, number, number];

/** A cutting plane: the points p with normal · p = offset; the side the normal points to stays drawn. */
export interface SectionPlane {
  normal: Point3;
  offset: number;
}

export interface ViewerPin {
  modelId: string;
  point: Point3;
  label: string;
  /** The pin the reader has chosen in the list: drawn larger and in the accent colour. */
  active?: boolean;
}

export interface ViewerPolyline {
  modelId: string;
  points: Point3[];
  /** A saved line (closed loop) or the one being drawn (open, its points marked). */
  kind: 'saved' | 'draft';
  active?: boolean;
}

export type RenderResponse =
  | { type: 'screenshot'; reqId: number; blob: Blob | null }
  /** The point under the spot and the model it lies on (its id), or nulls. */
  | { type: 'pick'; reqId: number; point: Point3 | null; modelId: string | null }
  /** The profile of the last section: how many segments and their total length (mm). */
  | { type: 'section'; segments: number; length: number }
  | { type: 'error'; message: string };
