/**
 * The imperative three.js part of the viewer. Renders on demand (no idle render loop) and frees everything on dispose().
 */
import {
  AmbientLight, BufferAttribute, BufferGeometry, Box3, Color, DirectionalLight, DoubleSide, HemisphereLight, Mesh,
  MeshStandardMaterial, PerspectiveCamera, Scene, Sphere, Vector3, WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { computeFitView, DEFAULT_VIEW_DIRECTION, unionBounds, type Vec3 } from './fit';
import type { LoadedMesh, ViewerJaw } from './types';

const NEUTRAL = 0xe6dfd2; // stone/ivory for scans without colours
const BITE = 0x8fb6d9;

/** Records a duration in the Performance timeline (visible in DevTools and to tests); never throws. */
function measure(name: string, start: number): void {
  try {
    performance.measure(name, { start, end: performance.now() });
  } catch {
    // older browsers: ignore
  }
}

export class ViewerEngine {
  readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(35, 1, 0.1, 5000);
  private readonly controls: OrbitControls;
  private readonly meshes = new Map<string, { mesh: Mesh; bounds: LoadedMesh['bounds']; wantVisible: boolean; ready: boolean }>();
  private readonly resizeObserver: ResizeObserver;
  private frame = 0;
  private userMoved = false;
  private disposed = false;

  constructor(private readonly canvas: HTMLCanvasElement, private readonly container: HTMLElement) {
    this.renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.scene.background = new Color(0xf3f4f6);
    this.camera.up.set(0, 0, 1);
    this.camera.position.set(0, -120, 50);
    this.scene.add(new HemisphereLight(0xffffff, 0x8d8d99, 1.4));
    this.scene.add(new AmbientLight(0xffffff, 0.25));
    const head = new DirectionalLight(0xffffff, 1.6);
    head.position.set(0.3, 0.4, 1);
    this.camera.add(head); // a headlight: every side the user turns to is lit
    this.scene.add(this.camera);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.controls.screenSpacePanning = true;
    this.controls.addEventListener('change', this.requestRender);
    this.controls.addEventListener('start', this.onUserStart);
    this.resizeObserver = new ResizeObserver(this.resize);
    this.resizeObserver.observe(container);
    this.resize();
  }

  private onUserStart = () => {
    this.userMoved = true;
  };

  requestRender = () => {
    if (this.frame || this.disposed) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (this.disposed) return;
      const t0 = performance.now();
      this.renderer.render(this.scene, this.camera);
      measure('viewer:render', t0);
    });
  };

  resize = () => {
    if (this.disposed) return;
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  };

  /** Builds a mesh from transferred arrays (no per-vertex work on the main thread). */
  addMesh(id: string, data: LoadedMesh, jaw?: ViewerJaw, visible = true): void {
    const t0 = performance.now();
    this.removeMesh(id);
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(data.positions, 3));
    g.setAttribute('normal', new BufferAttribute(data.normals, 3));
    if (data.colors) g.setAttribute('color', new BufferAttribute(data.colors, 4, true));
    g.setIndex(new BufferAttribute(data.indices, 1));
    const min = new Vector3(...data.bounds.min), max = new Vector3(...data.bounds.max);
    g.boundingBox = new Box3(min, max);
    g.boundingSphere = new Sphere(min.clone().add(max).multiplyScalar(0.5), min.distanceTo(max) / 2);
    const m = new MeshStandardMaterial({
      color: data.colors ? 0xffffff : jaw === 'bite' ? BITE : NEUTRAL,
      vertexColors: !!data.colors,
      roughness: 0.6,
      metalness: 0,
      side: DoubleSide, // scans are open surfaces
    });
    const mesh = new Mesh(g, m);
    mesh.name = id;
    const entry = { mesh, bounds: data.bounds, wantVisible: visible, ready: false };
    this.meshes.set(id, entry);
    this.scene.add(mesh);
    if (!this.userMoved) this.fit();
    // Compile the shader program without blocking (KHR_parallel_shader_compile where available); the mesh is shown
    // once its program is ready, so no frame waits on a synchronous compile/link.
    const show = () => {
      if (this.disposed || this.meshes.get(id) !== entry) return;
      entry.ready = true;
      mesh.visible = entry.wantVisible;
      this.requestRender();
    };
    this.renderer.compileAsync(mesh, this.camera, this.scene).then(show, show);
    mesh.visible = false;
    measure('viewer:addMesh', t0);
  }

  removeMesh(id: string): void {
    const e = this.meshes.get(id);
    if (!e) return;
    this.scene.remove(e.mesh);
    e.mesh.geometry.dispose();
    (e.mesh.material as MeshStandardMaterial).dispose();
    this.meshes.delete(id);
    this.requestRender();
  }

  clear(): void {
    for (const id of [...this.meshes.keys()]) this.removeMesh(id);
    this.userMoved = false;
  }

  setVisible(id: string, visible: boolean): void {
    const e = this.meshes.get(id);
    if (!e) return;
    e.wantVisible = visible;
    if (e.ready && e.mesh.visible !== visible) {
      e.mesh.visible = visible;
      this.requestRender();
    }
  }

  /** Frames the visible meshes (all meshes when none is visible), keeping the current viewing direction after the first fit. */
  fit(keepDirection = this.userMoved): void {
    const visible = [...this.meshes.values()].filter((e) => e.wantVisible);
    const box = unionBounds((visible.length ? visible : [...this.meshes.values()]).map((e) => e.bounds));
    if (!box) return;
    let dir: Vec3 = DEFAULT_VIEW_DIRECTION;
    if (keepDirection) {
      const d = this.camera.position.clone().sub(this.controls.target);
      if (d.lengthSq() > 0) dir = [d.x, d.y, d.z];
    }
    const v = computeFitView(box, this.camera.fov, this.camera.aspect, dir);
    this.controls.target.set(...v.target);
    this.camera.position.set(...v.position);
    this.camera.near = v.near;
    this.camera.far = v.far;
    this.camera.updateProjectionMatrix();
    this.controls.maxDistance = v.distance * 10;
    this.controls.update();
    this.requestRender();
  }

  /** Renders now and returns a PNG of the canvas. */
  screenshot(): Promise<Blob | null> {
    this.renderer.render(this.scene, this.camera);
    return new Promise((resolve) => this.canvas.toBlob(resolve, 'image/png'));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.resizeObserver.disconnect();
    this.controls.removeEventListener('change', this.requestRender);
    this.controls.removeEventListener('start', this.onUserStart);
    this.controls.dispose();
    for (const e of this.meshes.values()) {
      e.mesh.geometry.dispose();
      (e.mesh.material as MeshStandardMaterial).dispose();
    }
    this.meshes.clear();
    this.scene.clear();
    this.renderer.renderLists.dispose();
    this.renderer.dispose();
    this.renderer.forceContextLoss();
  }
}
