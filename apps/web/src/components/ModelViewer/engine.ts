/**
 * The page's half of the viewer: camera, orbit controls, fit and size. Drawing happens in render.worker.ts on the
 * canvas's OffscreenCanvas, and decoded meshes go from the decode worker straight to it, so nothing on this thread
 * waits for the GPU or holds mesh arrays. Frees everything on dispose().
 */
import { PerspectiveCamera } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { computeFitView, DEFAULT_VIEW_DIRECTION, unionBounds, type Vec3 } from './fit';
import type {
  Box3Like,
  Point3,
  RenderRequest,
  RenderResponse,
  SectionPlane,
  ViewerPin,
  ViewerPolyline,
  WorkerRequest,
} from './types';

/** What a click found: the point of a scan and the model it lies on. */
export interface PickHit {
  point: Point3;
  modelId: string | null;
}

/** Records a duration in the Performance timeline (visible in DevTools and to tests); never throws. */
function measure(name: string, start: number): void {
  try {
    performance.measure(name, { start, end: performance.now() });
  } catch {
    // older browsers: ignore
  }
}

export class ViewerEngine {
  private readonly camera = new PerspectiveCamera(35, 1, 0.1, 5000);
  private readonly controls: OrbitControls;
  private readonly meshes = new Map<string, Box3Like>();
  private readonly hidden = new Set<string>();
  private readonly worker: Worker;
  private readonly resizeObserver: ResizeObserver;
  private readonly screenshots = new Map<number, (blob: Blob | null) => void>();
  private readonly picks = new Map<number, (hit: PickHit | null) => void>();
  /** Told the profile of each section the renderer draws (segments, length in mm). */
  onSection: ((profile: { segments: number; length: number }) => void) | null = null;
  private screenshotId = 0;
  private pickId = 0;
  private gen = 0;
  private userMoved = false;
  /** The direction chosen with lookFrom, used by fits until the user turns the model. */
  private direction: Vec3 | null = null;
  private disposed = false;

  /**
   * Takes over `canvas` (its drawing moves to a worker) and connects `decoder` (decode.worker.ts) to that worker.
   * `onFailure` is called when the renderer cannot start, e.g. without WebGL; throws without OffscreenCanvas.
   */
  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly container: HTMLElement,
    decoder: Worker,
    onFailure: (message: string) => void,
  ) {
    // Transferred at its default size: the worker sizes it on the first ResizeObserver report (no forced layout here).
    const offscreen = this.canvas.transferControlToOffscreen();
    const { port1, port2 } = new MessageChannel();
    this.worker = new Worker(new URL('./render.worker.ts', import.meta.url), { type: 'module' });
    this.worker.onerror = () => onFailure('renderer failed');
    this.worker.onmessage = ({ data: msg }: MessageEvent<RenderResponse>) => {
      if (msg.type === 'error') onFailure(msg.message);
      else if (msg.type === 'pick') {
        this.picks.get(msg.reqId)?.(msg.point ? { point: msg.point, modelId: msg.modelId } : null);
        this.picks.delete(msg.reqId);
      } else if (msg.type === 'section') {
        this.onSection?.({ segments: msg.segments, length: msg.length });
      } else {
        this.screenshots.get(msg.reqId)?.(msg.blob);
        this.screenshots.delete(msg.reqId);
      }
    };
    this.post({ type: 'init', canvas: offscreen, decoder: port2 }, [offscreen, port2]);
    decoder.postMessage({ type: 'connect', renderer: port1 } satisfies WorkerRequest, [port1]);

    this.camera.up.set(0, 0, 1);
    this.camera.position.set(0, -120, 50);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.enableDamping = false;
    this.controls.screenSpacePanning = true;
    this.controls.addEventListener('change', this.sendCamera);
    this.controls.addEventListener('start', this.onUserStart);
    this.resizeObserver = new ResizeObserver(this.resize); // reports the initial size too
    this.resizeObserver.observe(container);
  }

  private post(msg: RenderRequest, transfer: Transferable[] = []): void {
    if (!this.disposed) this.worker.postMessage(msg, transfer);
  }

  private onUserStart = () => {
    this.userMoved = true;
    this.direction = null;
  };

  private sendCamera = () => {
    const c = this.camera;
    this.post({
      type: 'camera',
      pose: {
        position: c.position.toArray(),
        quaternion: c.quaternion.toArray(),
        fov: c.fov,
        aspect: c.aspect,
        near: c.near,
        far: c.far,
      },
    });
  };

  private resize = () => {
    if (this.disposed) return;
    const width = Math.max(1, this.container.clientWidth),
      height = Math.max(1, this.container.clientHeight);
    this.post({ type: 'size', width, height, pixelRatio: Math.min(window.devicePixelRatio || 1, 2) });
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.sendCamera();
  };

  /** Starts a new list of models: the renderer drops the meshes it has; returns the generation for their loads (MeshTarget.gen). */
  clear(): number {
    this.meshes.clear();
    this.userMoved = false;
    this.post({ type: 'clear', gen: ++this.gen });
    return this.gen;
  }

  /** A mesh has gone from the decode worker to the renderer: frame it (until the user has moved the camera). */
  meshLoaded(id: string, bounds: Box3Like): void {
    const t0 = performance.now();
    this.meshes.set(id, bounds);
    if (!this.userMoved) this.fit();
    measure('viewer:addMesh', t0);
  }

  setVisible(id: string, visible: boolean): void {
    if (visible) this.hidden.delete(id);
    else this.hidden.add(id);
    this.post({ type: 'visible', id, visible });
  }

  /** Frames the visible meshes (all meshes when none is visible), keeping the current viewing direction after the first fit. */
  fit(keepDirection = this.userMoved): void {
    let dir: Vec3 = this.direction ?? DEFAULT_VIEW_DIRECTION;
    if (keepDirection) {
      const d = this.camera.position.clone().sub(this.controls.target);
      if (d.lengthSq() > 0) dir = [d.x, d.y, d.z];
    }
    this.frame(dir);
  }

  /** Looks at the visible meshes from a direction (a report's upper, lower or bite view); later loads keep it. */
  lookFrom(direction: Vec3): void {
    this.direction = direction;
    this.frame(direction);
  }

  private frame(dir: Vec3): void {
    const visible = [...this.meshes].filter(([id]) => !this.hidden.has(id));
    const box = unionBounds((visible.length ? visible : [...this.meshes]).map(([, b]) => b));
    if (!box) return;
    const v = computeFitView(box, this.camera.fov, this.camera.aspect, dir);
    this.controls.target.set(...v.target);
    this.camera.position.set(...v.position);
    this.camera.near = v.near;
    this.camera.far = v.far;
    this.camera.updateProjectionMatrix();
    this.controls.maxDistance = v.distance * 10;
    this.controls.update();
    this.sendCamera(); // also when only near/far changed, which emits no 'change'
  }

  /** A PNG of the current view, rendered by the worker. */
  screenshot(): Promise<Blob | null> {
    if (this.disposed) return Promise.resolve(null);
    const reqId = ++this.screenshotId;
    return new Promise((resolve) => {
      this.screenshots.set(reqId, resolve);
      this.post({ type: 'screenshot', reqId });
    });
  }

  /** The point of the visible scans under a spot of the page (client coordinates), found by the renderer. */
  pick(clientX: number, clientY: number): Promise<PickHit | null> {
    if (this.disposed) return Promise.resolve(null);
    const rect = this.canvas.getBoundingClientRect();
    const x = ((clientX - rect.left) / Math.max(1, rect.width)) * 2 - 1;
    const y = -(((clientY - rect.top) / Math.max(1, rect.height)) * 2 - 1);
    const reqId = ++this.pickId;
    return new Promise((resolve) => {
      this.picks.set(reqId, resolve);
      this.post({ type: 'pick', reqId, x, y });
    });
  }

  /** Shows measurement points on the scans (none clears them). */
  setMarks(points: Point3[]): void {
    this.post({ type: 'marks', points });
  }

  /** Cuts the scans along a plane (null: whole again); the profile comes back through onSection. */
  setSection(plane: SectionPlane | null): void {
    this.post({ type: 'section', plane });
  }

  setPins(pins: ViewerPin[]): void {
    this.post({ type: 'pins', pins });
  }

  setLines(lines: ViewerPolyline[]): void {
    this.post({ type: 'lines', lines });
  }

  /** The camera's viewing direction (from the eye into the scene), as a unit vector. */
  viewDirection(): Point3 {
    const d = this.controls.target.clone().sub(this.camera.position).normalize();
    return [d.x, d.y, d.z];
  }

  /** The bounds of the visible meshes (all when none is visible), or null before any has loaded. */
  visibleBounds(): Box3Like | null {
    const visible = [...this.meshes].filter(([id]) => !this.hidden.has(id));
    return unionBounds((visible.length ? visible : [...this.meshes]).map(([, b]) => b));
  }

  dispose(): void {
    if (this.disposed) return;
    this.post({ type: 'dispose' }); // the worker frees its GPU resources and closes itself
    this.disposed = true;
    this.worker.onmessage = null;
    this.worker.onerror = null;
    for (const resolve of this.screenshots.values()) resolve(null);
    this.screenshots.clear();
    for (const resolve of this.picks.values()) resolve(null);
    this.picks.clear();
    this.onSection = null;
    this.resizeObserver.disconnect();
    this.controls.removeEventListener('change', this.sendCamera);
    this.controls.removeEventListener('start', this.onUserStart);
    this.controls.dispose();
    this.meshes.clear();
  }
}
