/** A rate (0–1) as a whole percentage in the reader's language; a dash where there is none. */
export function formatRate(rate: number | null, lang: string): string {
  if (rate === null) return '—';
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(rate);
}

/** Days with at most one decimal (medians of an even count end in .5). */
export function formatDays(days: number | null, lang: string): string {
  if (days === null) return '—';
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(days);
}

/** Screen points of a series of rates (0–1) over a box; null rates leave gaps between the segments. */
export function rateSegments(
  rates: readonly (number | null)[],
  box: { width: number; height: number; left: number; right: number; top: number; bottom: number },
): { x: number; y: number }[][] {
  const plotW = Math.max(1, box.width - box.left - box.right);
  const plotH = Math.max(1, box.height - box.top - box.bottom);
  const x = (i: number) => (rates.length <= 1 ? box.left + plotW / 2 : box.left + (i * plotW) / (rates.length - 1));
  const y = (r: number) => box.top + plotH - Math.min(1, Math.max(0, r)) * plotH;
  const segments: { x: number; y: number }[][] = [];
  let current: { x: number; y: number }[] = [];
  rates.forEach((r, i) => {
    if (r === null) {
      if (current.length) segments.push(current);
      current = [];
    } else current.push({ x: Math.round(x(i) * 10) / 10, y: Math.round(y(r) * 10) / 10 });
  });
  if (current.length) segments.push(current);
  return segments;
}
