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
  LineLoop,
  LineSegments,
  Mesh,
  MeshBasicMaterial,
  MeshStandardMaterial,
  CanvasTexture,
  PerspectiveCamera,
  Plane,
  Raycaster,
  Scene,
  Sphere,
  SphereGeometry,
  Sprite,
  SpriteMaterial,
  SRGBColorSpace,
  Vector2,
  Vector3,
  WebGLRenderer,
} from 'three';
import { acceleratedRaycast, computeBoundsTree, disposeBoundsTree } from 'three-mesh-bvh';
import { sliceMesh } from './section';
import type {
  CameraPose,
  MeshArrays,
  MeshTarget,
  Point3,
  RenderRequest,
  RenderResponse,
  SectionPlane,
  ViewerPin,
  ViewerPolyline,
} from './types';

// Picking walks a bounding volume hierarchy instead of every triangle: a click on a million-triangle scan answers in
// well under a millisecond once the mesh's tree is built (on its first pick, so viewing alone never pays for it).
BufferGeometry.prototype.computeBoundsTree = computeBoundsTree;
BufferGeometry.prototype.disposeBoundsTree = disposeBoundsTree;
Mesh.prototype.raycast = acceleratedRaycast;

const NEUTRAL = 0xe6dfd2; // stone/ivory for scans without colours
const BITE = 0x8fb6d9;
/** Measurement marks: a red that stands out on ivory and on coloured scans, drawn over the scans. */
const MARK = 0xd4380d;
/** A section's profile, annotation pins and margin lines: colours apart from the scans and from each other. */
const PROFILE = 0x0958d9;
const PIN = '#531dab';
const PIN_ACTIVE = '#d4380d';
const MARGIN = 0x08979c;
const MARGIN_ACTIVE = 0xd4380d;
/** A pin's height as a share of the canvas's (sprites not shrunk by distance: a pin stays readable at any zoom). */
const PIN_SCALE = 0.035;
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

const dotWith = (n: Point3, p: Vector3) => n[0] * p.x + n[1] * p.y + n[2] * p.z;

/** Removes and frees what a group of marks holds (geometries, materials, textures). */
function clearGroup(group: Group): void {
  for (const child of [...group.children]) {
    group.remove(child);
    const drawn = child as Mesh | Line | Sprite;
    drawn.geometry.dispose();
    const material = drawn.material as MeshBasicMaterial | SpriteMaterial;
    material.map?.dispose();
    material.dispose();
  }
}

/** A pin: a filled circle with its number, drawn on a canvas of this worker. */
function pinTexture(label: string, color: string): CanvasTexture<OffscreenCanvas> {
  const size = 64;
  const canvas = new OffscreenCanvas(size, size);
  const ctx = canvas.getContext('2d')!;
  ctx.beginPath();
  ctx.arc(size / 2, size / 2, size / 2 - 3, 0, Math.PI * 2);
  ctx.fillStyle = color;
  ctx.fill();
  ctx.lineWidth = 4;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  ctx.fillStyle = '#ffffff';
  ctx.font = `bold ${label.length > 2 ? 22 : 30}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, size / 2, size / 2 + 1);
  const texture = new CanvasTexture(canvas);
  texture.colorSpace = SRGBColorSpace;
  return texture;
}

class SceneRenderer {
  private readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(35, 1, 0.1, 5000);
  private readonly meshes = new Map<string, Mesh<BufferGeometry, MeshStandardMaterial>>();
  private readonly hidden = new Set<string>();
  private readonly warmUp: Mesh<BufferGeometry, MeshStandardMaterial>[];
  private readonly marks = new Group();
  private readonly profile = new Group();
  private readonly pinGroup = new Group();
  private readonly lineGroup = new Group();
  private section: SectionPlane | null = null;
  private pins: ViewerPin[] = [];
  private lines: ViewerPolyline[] = [];
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
    for (const g of [this.marks, this.profile, this.pinGroup, this.lineGroup]) this.scene.add(g);
  }

  /** The visible scans and their ids. */
  private visibleMeshes() {
    return [...this.meshes].filter(([, m]) => m.visible);
  }

  /** A size for marks that shows at any zoom: a share of the scans' extent. */
  private markRadius(): number {
    const scene = new Box3();
    for (const m of this.meshes.values()) if (m.geometry.boundingBox) scene.union(m.geometry.boundingBox);
    return Math.max(0.15, (scene.isEmpty() ? 50 : scene.getSize(new Vector3()).length()) / 250);
  }

  /**
   * Cuts the visible scans along a plane (the near side is clipped away) and draws the profile where they cross
   * it. Answers the profile's segment count and length.
   */
  setSection(plane: SectionPlane | null): { segments: number; length: number } {
    this.section = plane;
    const clip = plane ? [new Plane(new Vector3(...plane.normal), -plane.offset)] : [];
    this.renderer.localClippingEnabled = plane !== null;
    for (const m of this.meshes.values()) m.material.clippingPlanes = clip;
    clearGroup(this.profile);
    let segments = 0;
    let length = 0;
    if (plane) {
      const t0 = performance.now();
      for (const [, m] of this.visibleMeshes()) {
        const index = m.geometry.getIndex();
        if (!index) continue;
        const cut = sliceMesh(m.geometry.getAttribute('position').array, index.array, plane);
        if (cut.segments.length === 0) continue;
        const g = new LineGeometry();
        g.setAttribute('position', new BufferAttribute(cut.segments, 3));
        const drawn = new LineSegments(
          g,
          new LineBasicMaterial({ color: PROFILE, depthTest: false, transparent: true }),
        );
        drawn.renderOrder = 2;
        this.profile.add(drawn);
        segments += cut.segments.length / 6;
        length += cut.length;
      }
      measure('viewer:section', t0);
    }
    this.requestRender();
    return { segments, length };
  }

  /** Numbered pins over the scans, each while its model shows. */
  setPins(pins: ViewerPin[]): void {
    this.pins = pins;
    clearGroup(this.pinGroup);
    for (const pin of pins) {
      if (!this.meshes.get(pin.modelId)?.visible) continue;
      const sprite = new Sprite(
        new SpriteMaterial({
          map: pinTexture(pin.label, pin.active ? PIN_ACTIVE : PIN),
          depthTest: false,
          sizeAttenuation: false,
        }),
      );
      const scale = PIN_SCALE * (pin.active ? 1.3 : 1);
      sprite.scale.set(scale, scale, 1);
      sprite.position.set(...pin.point);
      sprite.renderOrder = 3;
      this.pinGroup.add(sprite);
    }
    this.requestRender();
  }

  /** Lines on the scans: saved margin lines as closed loops, the one being drawn open with its points marked. */
  setLines(lines: ViewerPolyline[]): void {
    this.lines = lines;
    clearGroup(this.lineGroup);
    const radius = this.markRadius() * 0.7;
    for (const line of lines) {
      if (!this.meshes.get(line.modelId)?.visible || line.points.length === 0) continue;
      const color = line.active || line.kind === 'draft' ? MARGIN_ACTIVE : MARGIN;
      const material = () => new LineBasicMaterial({ color, depthTest: false, transparent: true });
      const geometry = new LineGeometry().setFromPoints(line.points.map((p) => new Vector3(...p)));
      const drawn = line.kind === 'saved' ? new LineLoop(geometry, material()) : new Line(geometry, material());
      drawn.renderOrder = 2;
      this.lineGroup.add(drawn);
      if (line.kind === 'draft')
        for (const p of line.points) {
          const dot = new Mesh(
            new SphereGeometry(radius, 12, 8),
            new MeshBasicMaterial({ color, depthTest: false, transparent: true }),
          );
          dot.position.set(...p);
          dot.renderOrder = 2;
          this.lineGroup.add(dot);
        }
    }
    this.requestRender();
  }

  /** The nearest point of a visible scan under a spot of the canvas (normalised device coordinates), or null. */
  pick(x: number, y: number): { point: Point3 | null; modelId: string | null } {
    this.raycaster.setFromCamera(new Vector2(x, y), this.camera);
    const visible = this.visibleMeshes().map(([, m]) => m);
    const t0 = performance.now();
    for (const m of visible) if (!m.geometry.boundsTree) m.geometry.computeBoundsTree();
    // All hits, nearest first: a section clips the near side away, and a point there is not what the reader sees.
    this.raycaster.firstHitOnly = !this.section;
    const hit = this.raycaster
      .intersectObjects(visible, false)
      .find((h) => !this.section || dotWith(this.section.normal, h.point) >= this.section.offset);
    measure('viewer:pick', t0);
    if (!hit) return { point: null, modelId: null };
    const modelId = [...this.meshes].find(([, m]) => m === hit.object)?.[0] ?? null;
    return { point: [hit.point.x, hit.point.y, hit.point.z], modelId };
  }

  /** Draws the marked points as dots joined by a line, over the scans; sized to the scene so they show at any zoom. */
  setMarks(points: Point3[]): void {
    clearGroup(this.marks);
    if (points.length) {
      const radius = this.markRadius();
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
    this.refreshOverlays();
  }

  /** Pins, lines and the section follow which scans are there and shown. */
  private refreshOverlays(): void {
    this.setPins(this.pins);
    this.setLines(this.lines);
    const section = this.setSection(this.section);
    if (this.section) scope.postMessage({ type: 'section', ...section });
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
    this.refreshOverlays();
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
    for (const g of [this.marks, this.profile, this.pinGroup, this.lineGroup]) clearGroup(g);
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
      return scope.postMessage({ type: 'pick', reqId: msg.reqId, ...r.pick(msg.x, msg.y) });
    case 'marks':
      return r.setMarks(msg.points);
    case 'section':
      return scope.postMessage({ type: 'section', ...r.setSection(msg.plane) });
    case 'pins':
      return r.setPins(msg.pins);
    case 'lines':
      return r.setLines(msg.lines);
    case 'screenshot':
      void r.screenshot().then(
        (blob) => scope.postMessage({ type: 'screenshot', reqId: msg.reqId, blob }),
        () => scope.postMessage({ type: 'screenshot', reqId: msg.reqId, blob: null }),
      );
  }
}
scope.onmessage = onMessage;
