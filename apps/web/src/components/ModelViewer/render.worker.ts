/**
 * The WebGL half of the viewer: a worker drawing the three.js scene on the viewer's OffscreenCanvas. Off the page's
 * thread because without GPU compositing (software rendering) Chromium reads every presented WebGL frame back on the
 * thread that drew it, which then waits for the whole frame (seconds for 2M triangles on a software rasteriser).
 * The page (engine.ts) sends sizes, camera poses and visibility; the decode worker sends the meshes.
 */
import {
  AmbientLight,
  BufferAttribute,
  BufferGeometry as LineGeometry,
  BufferGeometry,
  Box3,
  Color,
  DirectionalLight,
  DoubleSide,
  Group,
  HemisphereLight,
  Line,
  LineBasicMaterial,
  Mesh,
  MeshBasicMaterial,
  MeshStandardMaterial,
  PerspectiveCamera,
  Raycaster,
  Scene,
  Sphere,
  SphereGeometry,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';
import { acceleratedRaycast, computeBoundsTree, disposeBoundsTree } from 'three-mesh-bvh';
import type { CameraPose, MeshArrays, MeshTarget, Point3, RenderRequest, RenderResponse } from './types';

// Picking walks a bounding volume hierarchy instead of every triangle: a click on a million-triangle scan answers in
// well under a millisecond once the mesh's tree is built (on its first pick, so viewing alone never pays for it).
BufferGeometry.prototype.computeBoundsTree = computeBoundsTree;
BufferGeometry.prototype.disposeBoundsTree = disposeBoundsTree;
Mesh.prototype.raycast = acceleratedRaycast;

const NEUTRAL = 0xe6dfd2; // stone/ivory for scans without colours
const BITE = 0x8fb6d9;
/** Measurement marks: a red that stands out on ivory and on coloured scans, drawn over the scans. */
const MARK = 0xd4380d;
// Software rasterisers (no GPU), where 4× multisampling makes each 1M-triangle frame several times slower.
const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|basic render/i;

/** Records a duration in this worker's Performance timeline (visible in DevTools); never throws. */
function measure(name: string, start: number): void {
  try {
    performance.measure(name, { start, end: performance.now() });
  } catch {
    // older browsers: ignore
  }
}

/** Warm-up and real meshes use the same settings, so they share one shader program per variant. */
function makeMaterial(vertexColors: boolean, color: number): MeshStandardMaterial {
  return new MeshStandardMaterial({ color, vertexColors, roughness: 0.6, metalness: 0, side: DoubleSide }); // scans are open surfaces
}

/** A WebGL2 context: multisampled on a GPU, not on a software rasteriser (asked of a throw-away 1×1 context). */
function createContext(canvas: OffscreenCanvas): WebGL2RenderingContext {
  const probe = new OffscreenCanvas(1, 1).getContext('webgl2');
  if (!probe) throw new Error('WebGL unavailable');
  const info = probe.getExtension('WEBGL_debug_renderer_info');
  const name = String(probe.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : probe.RENDERER));
  probe.getExtension('WEBGL_lose_context')?.loseContext();
  const gl = canvas.getContext('webgl2', {
    antialias: !SOFTWARE_RENDERER.test(name),
    alpha: true,
    depth: true,
    stencil: false,
    powerPreference: 'high-performance',
  });
  if (!gl) throw new Error('WebGL unavailable');
  return gl;
}

class SceneRenderer {
  private readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(35, 1, 0.1, 5000);
  private readonly meshes = new Map<string, Mesh<BufferGeometry, MeshStandardMaterial>>();
  private readonly hidden = new Set<string>();
  private readonly warmUp: Mesh<BufferGeometry, MeshStandardMaterial>[];
  private readonly marks = new Group();
  private readonly raycaster = new Raycaster();
  private gen = 0;
  private frame = 0;
  private disposed = false;

  constructor(private readonly canvas: OffscreenCanvas) {
    this.renderer = new WebGLRenderer({ canvas, context: createContext(canvas) });
    this.scene.background = new Color(0xf3f4f6);
    this.camera.up.set(0, 0, 1);
    this.scene.add(new HemisphereLight(0xffffff, 0x8d8d99, 1.4));
    this.scene.add(new AmbientLight(0xffffff, 0.25));
    const head = new DirectionalLight(0xffffff, 1.6);
    head.position.set(0.3, 0.4, 1);
    this.camera.add(head); // a headlight: every side the user turns to is lit
    this.scene.add(this.camera);
    // Compile and link both shader programs (plain and vertex-coloured, as the scans will need them) while the scans
    // are still downloading. compile(), not render(): a drawn frame would have to be presented, and presenting waits
    // for the GPU process, which would hold this worker until then.
    this.warmUp = [false, true].map((colored) => {
      const g = new BufferGeometry();
      g.setAttribute('position', new BufferAttribute(new Float32Array(9), 3));
      g.setAttribute('normal', new BufferAttribute(new Float32Array(9), 3));
      if (colored) g.setAttribute('color', new BufferAttribute(new Uint16Array(12), 4, true));
      const m = new Mesh(g, makeMaterial(colored, NEUTRAL));
      m.frustumCulled = false;
      this.scene.add(m);
      return m;
    });
    this.renderer.compile(this.scene, this.camera);
    // Hidden, not removed: the programs stay cached while their warm-up materials live.
    for (const m of this.warmUp) m.visible = false;
    this.marks.renderOrder = 1;
    this.scene.add(this.marks);
  }

  /** The nearest point of a visible scan under a spot of the canvas (normalised device coordinates), or null. */
  pick(x: number, y: number): Point3 | null {
    this.raycaster.setFromCamera(new Vector2(x, y), this.camera);
    this.raycaster.firstHitOnly = true;
    const visible = [...this.meshes.values()].filter((m) => m.visible);
    const t0 = performance.now();
    for (const m of visible) if (!m.geometry.boundsTree) m.geometry.computeBoundsTree();
    const [hit] = this.raycaster.intersectObjects(visible, false);
    measure('viewer:pick', t0);
    return hit ? [hit.point.x, hit.point.y, hit.point.z] : null;
  }

  /** Draws the marked points as dots joined by a line, over the scans; sized to the scene so they show at any zoom. */
  setMarks(points: Point3[]): void {
    for (const child of [...this.marks.children]) {
      this.marks.remove(child);
      const drawn = child as Mesh | Line;
      drawn.geometry.dispose();
      (drawn.material as MeshBasicMaterial).dispose();
    }
    if (points.length) {
      const scene = new Box3();
      for (const m of this.meshes.values()) if (m.geometry.boundingBox) scene.union(m.geometry.boundingBox);
      const radius = Math.max(0.15, (scene.isEmpty() ? 50 : scene.getSize(new Vector3()).length()) / 250);
      for (const p of points) {
        const dot = new Mesh(
          new SphereGeometry(radius, 16, 12),
          new MeshBasicMaterial({ color: MARK, depthTest: false, transparent: true }),
        );
        dot.position.set(...p);
        dot.renderOrder = 2;
        this.marks.add(dot);
      }
      if (points.length > 1) {
        const line = new Line(
          new LineGeometry().setFromPoints(points.map((p) => new Vector3(...p))),
          new LineBasicMaterial({ color: MARK, depthTest: false, transparent: true }),
        );
        line.renderOrder = 2;
        this.marks.add(line);
      }
    }
    this.requestRender();
  }

  setSize(width: number, height: number, pixelRatio: number): void {
    this.renderer.setPixelRatio(pixelRatio);
    this.renderer.setSize(width, height, false);
    this.requestRender();
  }

  setCamera(pose: CameraPose): void {
    this.camera.position.fromArray(pose.position);
    this.camera.quaternion.fromArray(pose.quaternion);
    Object.assign(this.camera, { fov: pose.fov, aspect: pose.aspect, near: pose.near, far: pose.far });
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  /** Drops every mesh of older generations (a new list of models is loading). */
  clear(gen: number): void {
    if (gen <= this.gen) return;
    this.gen = gen;
    for (const id of [...this.meshes.keys()]) this.removeMesh(id);
  }

  /** Builds a mesh from transferred arrays (no per-vertex work here); it is uploaded and drawn in the next frame. */
  addMesh({ id, jaw, gen }: MeshTarget, data: MeshArrays): void {
    if (gen < this.gen) return; // a load the page has since replaced
    this.clear(gen);
    this.removeMesh(id);
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(data.positions, 3));
    g.setAttribute('normal', new BufferAttribute(data.normals, 3));
    if (data.colors) g.setAttribute('color', new BufferAttribute(data.colors, 4, true));
    g.setIndex(new BufferAttribute(data.indices, 1));
    const min = new Vector3(...data.bounds.min),
      max = new Vector3(...data.bounds.max);
    g.boundingBox = new Box3(min, max);
    g.boundingSphere = new Sphere(min.clone().add(max).multiplyScalar(0.5), min.distanceTo(max) / 2);
    const mesh = new Mesh(g, makeMaterial(!!data.colors, data.colors ? 0xffffff : jaw === 'bite' ? BITE : NEUTRAL));
    mesh.visible = !this.hidden.has(id);
    this.meshes.set(id, mesh);
    this.scene.add(mesh);
    this.requestRender();
  }

  private removeMesh(id: string): void {
    const mesh = this.meshes.get(id);
    if (!mesh) return;
    this.scene.remove(mesh);
    mesh.geometry.disposeBoundsTree();
    mesh.geometry.dispose();
    mesh.material.dispose();
    this.meshes.delete(id);
    this.requestRender();
  }

  /** Remembered per id, so a mesh that arrives later starts as the user left its toggle. */
  setVisible(id: string, visible: boolean): void {
    if (visible) this.hidden.delete(id);
    else this.hidden.add(id);
    const mesh = this.meshes.get(id);
    if (!mesh || mesh.visible === visible) return;
    mesh.visible = visible;
    this.requestRender();
  }

  /** Renders now and snapshots the canvas in the same task, while the drawing buffer still holds the frame. */
  screenshot(): Promise<Blob> {
    this.renderer.render(this.scene, this.camera);
    return this.canvas.convertToBlob({ type: 'image/png' });
  }

  /** At most one frame per animation frame; it is presented when the callback returns. */
  private requestRender(): void {
    if (this.frame || this.disposed) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (this.disposed) return;
      const t0 = performance.now();
      this.renderer.render(this.scene, this.camera);
      measure('viewer:render', t0);
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    for (const m of [...this.meshes.values(), ...this.warmUp]) {
      m.geometry.dispose();
      m.material.dispose();
    }
    this.meshes.clear();
    this.scene.clear();
    this.renderer.renderLists.dispose();
    this.renderer.dispose();
    this.renderer.forceContextLoss();
  }
}

// The page (engine.ts) posts to this worker; the decode worker posts 'add' on the port that comes with 'init'.
const scope = self as unknown as {
  onmessage: ((ev: MessageEvent<RenderRequest>) => void) | null;
  postMessage(msg: RenderResponse): void;
  close(): void;
};
let renderer: SceneRenderer | null = null;
let decoder: MessagePort | null = null;

function onMessage({ data: msg }: MessageEvent<RenderRequest>): void {
  if (msg.type === 'init') {
    decoder = msg.decoder;
    decoder.onmessage = onMessage;
    try {
      renderer = new SceneRenderer(msg.canvas);
    } catch (e) {
      scope.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
    }
    return;
  }
  if (msg.type === 'dispose') {
    renderer?.dispose();
    decoder?.close();
    scope.close();
    return;
  }
  const r = renderer;
  if (!r) return;
  switch (msg.type) {
    case 'size':
      return r.setSize(msg.width, msg.height, msg.pixelRatio);
    case 'camera':
      return r.setCamera(msg.pose);
    case 'add':
      return r.addMesh(msg, msg.mesh);
    case 'clear':
      return r.clear(msg.gen);
    case 'visible':
      return r.setVisible(msg.id, msg.visible);
    case 'pick':
      return scope.postMessage({ type: 'pick', reqId: msg.reqId, point: r.pick(msg.x, msg.y) });
    case 'marks':
      return r.setMarks(msg.points);
    case 'screenshot':
      void r.screenshot().then(
        (blob) => scope.postMessage({ type: 'screenshot', reqId: msg.reqId, blob }),
        () => scope.postMessage({ type: 'screenshot', reqId: msg.reqId, blob: null }),
      );
  }
}
scope.onmessage = onMessage;
