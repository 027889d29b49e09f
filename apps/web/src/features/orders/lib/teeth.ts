import type { ToothItem } from '../api/types';

/** The upper arch as the chart draws it, facing the patient: patient's right (18) on the left … 28. */
export const UPPER_TEETH: readonly number[] = [18, 17, 16, 15, 14, 13, 12, 11, 21, 22, 23, 24, 25, 26, 27, 28];
/** The lower arch, facing the patient: 48 on the left … 38. */
export const LOWER_TEETH: readonly number[] = [48, 47, 46, 45, 44, 43, 42, 41, 31, 32, 33, 34, 35, 36, 37, 38];
const CHART_ORDER = [...UPPER_TEETH, ...LOWER_TEETH];

/** Teeth in chart order (upper arch left to right, then lower), so tables read like the chart. */
export function sortTeeth(numbers: readonly number[]): number[] {
  return [...new Set(numbers)]
    .filter((n) => CHART_ORDER.includes(n))
    .sort((a, b) => CHART_ORDER.indexOf(a) - CHART_ORDER.indexOf(b));
}

export function toggleTooth(selected: readonly number[], fdi: number): number[] {
  return sortTeeth(selected.includes(fdi) ? selected.filter((n) => n !== fdi) : [...selected, fdi]);
}

/** Molar, premolar, canine or incisor by the FDI tooth position (1–8): the chart draws them in different sizes. */
export function toothKind(fdi: number): 'molar' | 'premolar' | 'canine' | 'incisor' {
  const pos = fdi % 10;
  if (pos >= 6) return 'molar';
  if (pos >= 4) return 'premolar';
  return pos === 3 ? 'canine' : 'incisor';
}

/** The editor's items for the chosen teeth: what was entered for a tooth is kept, new teeth start empty. */
export function itemsForTeeth(items: readonly ToothItem[], selected: readonly number[]): ToothItem[] {
  return sortTeeth(selected).map((n) => items.find((i) => i.number === n) ?? { number: n });
}

export function setToothValue<K extends keyof ToothItem>(
  items: readonly ToothItem[],
  fdi: number,
  key: K,
  value: ToothItem[K],
): ToothItem[] {
  return items.map((i) => (i.number === fdi ? { ...i, [key]: value } : i));
}

/** Copies one tooth's prescription (not its number) to every tooth: bridges and full arches share it. */
export function copyToAll(items: readonly ToothItem[], fromFdi: number): ToothItem[] {
  const from = items.find((i) => i.number === fromFdi);
  if (!from) return [...items];
  const { number: _number, ...rest } = from;
  return items.map((i) => ({ ...rest, number: i.number }));
}

const TEXT_KEYS = ['shade', 'crownCategory', 'crownType', 'material'] as const;
const FLAG_KEYS = ['implant', 'inlayCore', 'edentulous', 'preOpScan'] as const;

/** The item as sent: text trimmed, empty text and unset flags left out. */
export function cleanTooth(item: ToothItem): ToothItem {
  const out: ToothItem = { number: item.number };
  for (const k of TEXT_KEYS) {
    const v = item[k]?.trim();
    if (v) out[k] = v;
  }
  if (item.method) out.method = item.method;
  for (const k of FLAG_KEYS) if (item[k]) out[k] = true;
  return out;
}
