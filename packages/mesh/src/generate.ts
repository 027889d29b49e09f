/**
 * Synthetic intraoral scans for tests, demos and benchmarks (browser- and node-safe).
 * Coordinates in millimetres: occlusal plane ≈ XY, z up (lower teeth point +z, upper teeth −z),
 * incisors towards −y, molars near y = 0. Upper and lower are generated in occlusion (same coordinate system).
 */
import type { IndexedMesh } from './types.js';

export interface ArchOptions {
  jaw: 'upper' | 'lower';
  /** Target triangle count (the result is within ±2 % for counts ≥ 10 000). */
  triangles: number;
  seed: number;
}

/** Deterministic PRNG (mulberry32). */
export function createRng(seed: number): () => number {
  let a = (seed | 0) ^ 0x5bd1e995;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type ToothKind = 'incisor1' | 'incisor2' | 'canine' | 'premolar' | 'molar';
interface ToothSpec {
  kind: ToothKind;
  width: number;
  half: number;
  height: number;
}

// Mesio-distal width, bucco-lingual half-thickness and crown height (mm), from the midline outwards.
const UPPER: ToothSpec[] = [
  { kind: 'incisor1', width: 8.6, half: 3.4, height: 10 },
  { kind: 'incisor2', width: 6.6, half: 3.1, height: 8.8 },
  { kind: 'canine', width: 7.6, half: 4.0, height: 9.6 },
  { kind: 'premolar', width: 7.0, half: 4.5, height: 8.0 },
  { kind: 'premolar', width: 6.6, half: 4.5, height: 7.6 },
  { kind: 'molar', width: 10.2, half: 5.5, height: 7.0 },
  { kind: 'molar', width: 9.2, half: 5.3, height: 6.6 },
];
const LOWER: ToothSpec[] = [
  { kind: 'incisor1', width: 5.2, half: 3.0, height: 8.6 },
  { kind: 'incisor2', width: 5.8, half: 3.1, height: 8.8 },
  { kind: 'canine', width: 6.9, half: 3.8, height: 9.8 },
  { kind: 'premolar', width: 7.0, half: 3.9, height: 8.0 },
  { kind: 'premolar', width: 7.1, half: 4.2, height: 7.6 },
  { kind: 'molar', width: 11.0, half: 5.2, height: 7.2 },
  { kind: 'molar', width: 10.4, half: 5.0, height: 6.8 },
];

const EMBED = 1.4; // crown base sunk into the gum (mm)
const GUM_DEPTH = 11; // gum band height below the ridge (mm)
const OCCLUSION_Z = 16.4; // upper ridge height above the lower ridge, arches in occlusion

interface Curve {
  length: number;
  /** Writes point (x,y) and unit tangent (tx,ty) at arc length s into out[0..3]. */
  at(s: number, out: Float64Array): void;
}

function archCurve(halfWidth: number, depth: number): Curve {
  const n = 2048;
  const xs = new Float64Array(n + 1),
    ys = new Float64Array(n + 1),
    cum = new Float64Array(n + 1);
  for (let i = 0; i <= n; i++) {
    const u = (i / n) * 2 - 1; // −1 … 1
    xs[i] = u * halfWidth;
    // a softened parabola: flatter incisor segment, straighter posterior segments
    ys[i] = -depth + depth * (0.75 * u * u + 0.25 * Math.abs(u) ** 3.2);
    if (i > 0) cum[i] = cum[i - 1]! + Math.hypot(xs[i]! - xs[i - 1]!, ys[i]! - ys[i - 1]!);
  }
  const length = cum[n]!;
  return {
    length,
    at(s, out) {
      s = Math.min(Math.max(s, 0), length);
      let lo = 0,
        hi = n;
      while (hi - lo > 1) {
        const m = (lo + hi) >> 1;
        if (cum[m]! <= s) lo = m;
        else hi = m;
      }
      const seg = cum[hi]! - cum[lo]!;
      const f = seg > 0 ? (s - cum[lo]!) / seg : 0;
      const dx = xs[hi]! - xs[lo]!,
        dy = ys[hi]! - ys[lo]!;
      const l = Math.hypot(dx, dy) || 1;
      out[0] = xs[lo]! + dx * f;
      out[1] = ys[lo]! + dy * f;
      out[2] = dx / l;
      out[3] = dy / l;
    },
  };
}

interface Cusp {
  x: number;
  y: number;
  h: number;
  s: number;
}
interface Tooth {
  spec: ToothSpec;
  s: number; // arc-length position of the centre
  a: number; // mesio-distal semi-axis
  b: number; // bucco-lingual semi-axis
  h: number; // crown height without cusps
  e: number; // footprint squareness
  rot: number;
  dx: number;
  dy: number;
  cusps: Cusp[];
  nPhi: number;
  nT: number;
}

function makeTeeth(specs: ToothSpec[], curve: Curve, rng: () => number): Tooth[] {
  const seq = [...specs].reverse().concat(specs); // right-to-left as the curve runs −x → +x
  const jitter = (amp: number) => (rng() * 2 - 1) * amp;
  const widths = seq.map((t) => t.width * (1 + jitter(0.05)));
  const sum = widths.reduce((p, w) => p + w, 0);
  const scale = (curve.length * 0.93) / sum;
  let s = curve.length * 0.035;
  return seq.map((spec, i) => {
    const w = widths[i]! * scale;
    const centre = s + w / 2;
    s += w;
    const a = (w / 2) * 0.94;
    const b = spec.half * (1 + jitter(0.05));
    const cusps: Cusp[] = [];
    const m = Math.min(a, b);
    if (spec.kind === 'molar') {
      for (const [cx, cy] of [
        [-0.42, 0.42],
        [0.42, 0.42],
        [-0.42, -0.42],
        [0.42, -0.4],
      ] as const) {
        cusps.push({ x: cx * a, y: cy * b, h: 1.4 * (1 + jitter(0.2)), s: 0.3 * m });
      }
      cusps.push({ x: 0, y: 0, h: -1.1, s: 0.32 * m });
    } else if (spec.kind === 'premolar') {
      cusps.push({ x: 0, y: 0.45 * b, h: 1.6 * (1 + jitter(0.15)), s: 0.38 * m });
      cusps.push({ x: 0, y: -0.45 * b, h: 1.0 * (1 + jitter(0.15)), s: 0.36 * m });
      cusps.push({ x: 0, y: 0, h: -0.5, s: 0.3 * m });
    } else if (spec.kind === 'canine') {
      cusps.push({ x: 0, y: 0.1 * b, h: 2.2 * (1 + jitter(0.1)), s: 0.55 * a });
    }
    return {
      spec,
      s: centre,
      a,
      b,
      h:
        spec.height * (1 + jitter(0.06)) -
        (spec.kind === 'canine' ? 2 : spec.kind === 'incisor1' || spec.kind === 'incisor2' ? 0 : 1.2),
      e: spec.kind === 'molar' ? 3.2 : spec.kind === 'premolar' ? 2.6 : 2.3,
      rot: jitter(0.08),
      dx: jitter(0.25),
      dy: jitter(0.35),
      cusps,
      nPhi: 0,
      nT: 0,
    };
  });
}

function cuspField(t: Tooth, x: number, y: number): number {
  let v = 0;
  for (const c of t.cusps) {
    const dx = x - c.x,
      dy = y - c.y;
    v += c.h * Math.exp(-(dx * dx + dy * dy) / (2 * c.s * c.s));
  }
  return v;
}

/** Generates one arch: a horseshoe gum band (pink) with 14 crowns (ivory, cusps), deterministic for a seed. */
export function generateArch(opts: ArchOptions): IndexedMesh & { colors: Uint8Array } {
  const rng = createRng(opts.seed * 2 + (opts.jaw === 'upper' ? 1 : 0));
  const upper = opts.jaw === 'upper';
  const jitter = (amp: number) => (rng() * 2 - 1) * amp;
  const curve = archCurve((upper ? 24.3 : 22.8) + jitter(1), (upper ? 44 : 40) + jitter(1.5));
  const teeth = makeTeeth(upper ? UPPER : LOWER, curve, rng);
  const phase = [rng() * 6.28, rng() * 6.28, rng() * 6.28, rng() * 6.28];

  // Cross-section of the gum band: c ∈ [0,1] from buccal bottom over the ridge to lingual bottom.
  const crossLen = 2 * GUM_DEPTH + Math.PI * 5 + 4;
  const toothMeridian = (t: Tooth) => t.h + EMBED + 0.9 * (t.a + t.b);
  const toothPerimeter = (t: Tooth) => Math.PI * (3 * (t.a + t.b) - Math.sqrt((3 * t.a + t.b) * (t.a + 3 * t.b)));

  const target = Math.max(2000, Math.floor(opts.triangles));
  let ns = 0,
    nc = 0;
  const count = (d: number) => {
    ns = Math.max(8, Math.round(curve.length * d) + 1);
    nc = Math.max(6, Math.round(crossLen * d) + 1);
    let tris = 2 * (ns - 1) * (nc - 1);
    for (const t of teeth) {
      t.nPhi = Math.max(12, Math.round(toothPerimeter(t) * d));
      t.nT = Math.max(4, Math.round(toothMeridian(t) * d));
      tris += 2 * t.nPhi * (t.nT - 1) + t.nPhi;
    }
    return tris;
  };
  let lo = 0.05,
    hi = 200;
  for (let i = 0; i < 60; i++) {
    const mid = Math.sqrt(lo * hi);
    if (count(mid) < target) lo = mid;
    else hi = mid;
  }
  const d = Math.abs(count(lo) - target) < Math.abs(count(hi) - target) ? lo : hi;
  let triTotal = count(d);
  let vTotal = ns * nc;
  for (const t of teeth) vTotal += t.nT * t.nPhi + 1;

  const positions = new Float32Array(vTotal * 3);
  const colors = new Uint8Array(vTotal * 3);
  const indices = new Uint32Array(triTotal * 3);
  let vp = 0;
  let ip = 0;
  const c4 = new Float64Array(4);
  const put = (x: number, y: number, z: number, r: number, g: number, b: number) => {
    positions[vp * 3] = x;
    positions[vp * 3 + 1] = y;
    positions[vp * 3 + 2] = z;
    colors[vp * 3] = r < 0 ? 0 : r > 255 ? 255 : r;
    colors[vp * 3 + 1] = g < 0 ? 0 : g > 255 ? 255 : g;
    colors[vp * 3 + 2] = b < 0 ? 0 : b > 255 ? 255 : b;
    return vp++;
  };
  const tri = (a: number, b: number, c: number) => {
    indices[ip++] = a;
    indices[ip++] = b;
    indices[ip++] = c;
  };

  // Papillae: the gum rises between neighbouring crowns.
  const boundaries: number[] = [];
  for (let i = 0; i + 1 < teeth.length; i++)
    boundaries.push((teeth[i]!.s + teeth[i]!.a + teeth[i + 1]!.s - teeth[i + 1]!.a) / 2);
  const firstS = teeth[0]!.s - teeth[0]!.a,
    lastS = teeth[teeth.length - 1]!.s + teeth[teeth.length - 1]!.a;

  // --- gum band ---
  const gumBase = vp;
  for (let i = 0; i < ns; i++) {
    const s = (i / (ns - 1)) * curve.length;
    curve.at(s, c4);
    const [px, py, tx, ty] = c4 as unknown as [number, number, number, number];
    const nx = ty,
      ny = -tx; // buccal normal
    const along = Math.abs(s / curve.length - 0.5) * 2; // 0 at midline, 1 at the ends
    const bw = 4.6 + 1.6 * along; // ridge half-width
    let pap = 0;
    for (const bnd of boundaries) pap = Math.max(pap, Math.exp(-(((s - bnd) / 0.9) ** 2)));
    const inTeeth = s > firstS && s < lastS ? 1 : Math.exp(-(((s < firstS ? firstS - s : s - lastS) / 2) ** 2));
    const ridgeTop = -0.2 + 1.6 * pap * inTeeth - (1 - inTeeth) * 0.8;
    for (let j = 0; j < nc; j++) {
      const c = j / (nc - 1);
      const al = Math.PI * c;
      const ca = Math.cos(al),
        sa = Math.sin(al);
      const flare = 1.6 * (1 - sa) ** 2;
      const off = Math.sign(ca) * (Math.abs(ca) ** 0.7 * bw + flare);
      const depth = GUM_DEPTH + (ca < 0 ? 1.5 : 0);
      const bump = 0.25 * Math.sin(s * 0.9 + phase[0]!) * Math.sin(c * 9 + phase[1]!);
      const z = ridgeTop * sa ** 6 - depth * (1 - sa ** 0.45) + bump;
      const x = px + nx * off,
        y = py + ny * off;
      // pink, lighter near the crowns, darker towards the vestibule
      const light = sa ** 3;
      const nse = 6 * Math.sin(s * 0.31 + phase[2]!) * Math.cos(c * 4.3 + phase[3]!);
      put(x, y, z, 178 + 32 * light + nse, 92 + 30 * light + nse * 0.6, 102 + 26 * light + nse * 0.5);
    }
  }
  for (let i = 0; i + 1 < ns; i++) {
    for (let j = 0; j + 1 < nc; j++) {
      const a = gumBase + i * nc + j,
        b = a + nc;
      tri(a, b, a + 1);
      tri(a + 1, b, b + 1);
    }
  }

  // --- crowns ---
  for (const t of teeth) {
    curve.at(t.s, c4);
    const cr = Math.cos(t.rot),
      sr = Math.sin(t.rot);
    const tx0 = c4[2]!,
      ty0 = c4[3]!;
    const tx = tx0 * cr - ty0 * sr,
      ty = tx0 * sr + ty0 * cr;
    const nx = ty,
      ny = -tx;
    const cx = c4[0]! + tx0 * t.dx + ty0 * t.dy,
      cy = c4[1]! - tx0 * t.dy + ty0 * t.dx;
    const incisor = t.spec.kind === 'incisor1' || t.spec.kind === 'incisor2';
    const base = vp;
    const { nPhi, nT } = t;
    for (let j = 0; j < nT; j++) {
      // ring 0 is the cervical ring sunk into the gum; rings 1…nT−1 follow a superellipse profile
      const th = j === 0 ? 0 : (Math.PI / 2) * (j / nT);
      const cs = Math.cos(th),
        sn = Math.sin(th);
      let rho = cs ** (2 / 3.2);
      const wn = sn ** (2 / 3.2);
      rho *= 1 + 0.07 * Math.sin(Math.PI * Math.min(wn * 1.4, 1));
      if (j === 0) rho *= 0.9;
      const top = sn ** 3;
      const bScale = incisor ? 1 - 0.62 * wn ** 1.6 : 1;
      for (let k = 0; k < nPhi; k++) {
        const ph = (2 * Math.PI * k) / nPhi;
        const cp = Math.cos(ph),
          sp = Math.sin(ph);
        const r = (Math.abs(cp) ** t.e + Math.abs(sp) ** t.e) ** (-1 / t.e);
        const lx = t.a * r * cp * rho,
          ly = t.b * bScale * r * sp * rho;
        const cusp = cuspField(t, lx, ly) * top;
        const w = j === 0 ? -EMBED : t.h * wn + cusp;
        const x = cx + tx * lx + nx * ly,
          y = cy + ty * lx + ny * ly;
        const shade = 8 * cusp;
        const cerv = 1 - Math.min(1, Math.max(0, w) / 3);
        put(x, y, w, 236 - 14 * cerv + shade, 226 - 22 * cerv + shade, 204 - 34 * cerv + shade * 0.8);
      }
    }
    const pole = put(cx, cy, t.h + cuspField(t, 0, 0), 236, 228, 212);
    for (let j = 0; j + 1 < nT; j++) {
      for (let k = 0; k < nPhi; k++) {
        const k1 = (k + 1) % nPhi;
        const a = base + j * nPhi + k,
          b = base + j * nPhi + k1;
        const c = a + nPhi,
          e = b + nPhi;
        tri(a, b, c);
        tri(b, e, c);
      }
    }
    const last = base + (nT - 1) * nPhi;
    for (let k = 0; k < nPhi; k++) tri(last + k, last + ((k + 1) % nPhi), pole);
  }

  if (upper) {
    for (let i = 2; i < positions.length; i += 3) positions[i] = OCCLUSION_Z - positions[i]!;
    for (let i = 0; i < indices.length; i += 3) {
      const b = indices[i + 1]!;
      indices[i + 1] = indices[i + 2]!;
      indices[i + 2] = b;
    }
  }
  triTotal = ip / 3;
  return { positions, indices: indices.subarray(0, ip), colors };
}

/**
 * A small bite registration: a thin slab between the arches over the right posterior teeth
 * (two offset surfaces with tooth-like imprints). No colours.
 */
export function generateBite(opts: { triangles?: number; seed: number }): IndexedMesh {
  const rng = createRng(opts.seed * 7 + 3);
  const curve = archCurve(24.5, 42);
  const target = Math.max(2000, opts.triangles ?? 20000);
  const s0 = curve.length * 0.6,
    s1 = curve.length * 0.95;
  const half = 5.5; // bucco-lingual half width
  const len = s1 - s0;
  const perSurface = target / 2;
  const nc = Math.max(4, Math.round(Math.sqrt((perSurface / 2) * ((2 * half) / len)))) + 1;
  const ns = Math.max(4, Math.round(perSurface / 2 / (nc - 1))) + 1;
  const vcount = ns * nc * 2;
  const positions = new Float32Array(vcount * 3);
  const indices = new Uint32Array(2 * 2 * (ns - 1) * (nc - 1) * 3);
  const c4 = new Float64Array(4);
  const zMid = 8.2 + (rng() - 0.5) * 0.4;
  const ph = rng() * 6.28;
  let v = 0;
  for (let side = 0; side < 2; side++) {
    for (let i = 0; i < ns; i++) {
      const s = s0 + (i / (ns - 1)) * len;
      curve.at(s, c4);
      const nx = c4[3]!,
        ny = -c4[2]!;
      for (let j = 0; j < nc; j++) {
        const off = -half + (2 * half * j) / (nc - 1);
        const imprint = 0.45 * Math.sin(s * 0.8 + ph) * Math.cos((off / half) * 1.6);
        const edge = 1 - (off / half) ** 8;
        const z = zMid + (side === 0 ? 0.7 : -0.7) * edge + imprint * (side === 0 ? 1 : 0.8);
        positions[v * 3] = c4[0]! + nx * off;
        positions[v * 3 + 1] = c4[1]! + ny * off;
        positions[v * 3 + 2] = z;
        v++;
      }
    }
  }
  let ip = 0;
  for (let side = 0; side < 2; side++) {
    const base = side * ns * nc;
    for (let i = 0; i + 1 < ns; i++) {
      for (let j = 0; j + 1 < nc; j++) {
        const a = base + i * nc + j,
          b = a + nc;
        if (side === 0) {
          indices[ip++] = a;
          indices[ip++] = b;
          indices[ip++] = a + 1;
          indices[ip++] = a + 1;
          indices[ip++] = b;
          indices[ip++] = b + 1;
        } else {
          indices[ip++] = a;
          indices[ip++] = a + 1;
          indices[ip++] = b;
          indices[ip++] = a + 1;
          indices[ip++] = b + 1;
          indices[ip++] = b;
        }
      }
    }
  }
  return { positions, indices, colors: null };
}
