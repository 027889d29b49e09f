export interface Slice {
  key: string;
  label: string;
  value: number;
  color: string;
}

/** Arc path of a donut slice from angle a0 to a1 (radians, 0 = top, clockwise). */
export function arcPath(cx: number, cy: number, r: number, inner: number, a0: number, a1: number): string {
  // A full circle cannot be one arc: draw it as two halves.
  if (a1 - a0 >= Math.PI * 2 - 1e-9) {
    const mid = a0 + Math.PI;
    return `${arcPath(cx, cy, r, inner, a0, mid)} ${arcPath(cx, cy, r, inner, mid, a0 + Math.PI * 2)}`;
  }
  const pt = (radius: number, a: number) =>
    [cx + radius * Math.sin(a), cy - radius * Math.cos(a)].map((n) => Number(n.toFixed(3)));
  const [x0, y0] = pt(r, a0);
  const [x1, y1] = pt(r, a1);
  const [x2, y2] = pt(inner, a1);
  const [x3, y3] = pt(inner, a0);
  const large = a1 - a0 > Math.PI ? 1 : 0;
  return `M${x0} ${y0} A${r} ${r} 0 ${large} 1 ${x1} ${y1} L${x2} ${y2} A${inner} ${inner} 0 ${large} 0 ${x3} ${y3} Z`;
}

/** Angles of each slice proportional to its value; zero values get no slice. */
export function sliceAngles(values: readonly number[]): [number, number][] {
  const total = values.reduce((s, v) => s + Math.max(0, v), 0);
  let a = 0;
  return values.map((v) => {
    const span = total > 0 ? (Math.max(0, v) / total) * Math.PI * 2 : 0;
    const out: [number, number] = [a, a + span];
    a += span;
    return out;
  });
}

/** A small inline SVG donut, no chart library. */
export function DonutChart({ slices, size = 160, title }: { slices: Slice[]; size?: number; title?: string }) {
  const r = size / 2;
  const inner = r * 0.6;
  const angles = sliceAngles(slices.map((s) => s.value));
  const empty = slices.every((s) => s.value <= 0);
  return (
    <svg
      width={size}
      height={size}
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={title}
      data-testid="storage-chart"
    >
      {title ? <title>{title}</title> : null}
      {empty ? <path d={arcPath(r, r, r, inner, 0, Math.PI * 2)} fill="rgba(128,128,128,0.2)" /> : null}
      {slices.map((s, i) => {
        const [a0, a1] = angles[i]!;
        if (a1 - a0 <= 0) return null;
        return (
          <path key={s.key} d={arcPath(r, r, r, inner, a0, a1)} fill={s.color} data-kind={s.key}>
            <title>{s.label}</title>
          </path>
        );
      })}
    </svg>
  );
}
