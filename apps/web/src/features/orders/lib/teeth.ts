import {
  LOWER_ARCH,
  spanBetween,
  teethInName,
  toothRuns,
  UPPER_ARCH,
  type ToothNumberingSystem,
} from '@portal/contracts';
import type { ToothItem } from '../api/types';

export const UPPER_TEETH = UPPER_ARCH;
export const LOWER_TEETH = LOWER_ARCH;
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

/**
 * A click on the chart: a plain click toggles the tooth; a shift-click adds every tooth from the last one clicked
 * (the anchor) to this one along the arch. Across arches, or without an anchor, a shift-click is a plain click.
 */
export function selectTooth(selected: readonly number[], fdi: number, anchor: number | null, span: boolean): number[] {
  const between = span && anchor !== null ? spanBetween(anchor, fdi) : [];
  if (between.length > 1) return sortTeeth([...selected, ...between]);
  return toggleTooth(selected, fdi);
}

/** Molar, premolar, canine or incisor by the FDI tooth position (1–8): the chart draws each its own shape. */
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

/** The items after a click on the chart; a tooth leaving a bridge leaves the rest of it as it would be drawn. */
export function itemsAfterClick(items: readonly ToothItem[], fdi: number, anchor: number | null, span: boolean) {
  const next = itemsForTeeth(
    items,
    selectTooth(
      items.map((i) => i.number),
      fdi,
      anchor,
      span,
    ),
  );
  return next.length < items.length ? dissolveBrokenBridges(next) : next;
}

/**
 * Joins each run of two or more neighbouring chosen teeth into a bridge: the run's ends are abutments, the teeth
 * between them pontics (what a three-unit bridge 14–16 is). Teeth standing alone stay single. The dentist may then
 * change a unit (a four-unit bridge on three abutments, a cantilever).
 */
export function joinAsBridges(items: readonly ToothItem[]): ToothItem[] {
  const runs = toothRuns(items.map((i) => i.number)).filter((r) => r.length > 1);
  return items.map((item) => {
    const at = runs.findIndex((r) => r.includes(item.number));
    if (at < 0) return withUnit(item, 'single');
    const run = runs[at]!;
    const end = item.number === run[0] || item.number === run[run.length - 1];
    return { ...item, unit: end ? 'abutment' : 'pontic', bridgeGroup: at + 1, ...(end ? {} : { implant: undefined }) };
  });
}

/** Every tooth back to a single unit. */
export function separateBridges(items: readonly ToothItem[]): ToothItem[] {
  return items.map((i) => withUnit(i, 'single'));
}

function withUnit(item: ToothItem, unit: 'single'): ToothItem {
  const { bridgeGroup: _group, unit: _unit, ...rest } = item;
  return unit === 'single' ? rest : item;
}

/** A bridge left with one unit, or none of its abutments, or with a gap, is no bridge: its teeth become single. */
function dissolveBrokenBridges(items: ToothItem[]): ToothItem[] {
  const groups = new Map<number, ToothItem[]>();
  for (const i of items)
    if (i.bridgeGroup !== undefined) groups.set(i.bridgeGroup, [...(groups.get(i.bridgeGroup) ?? []), i]);
  const broken = new Set(
    [...groups]
      .filter(
        ([, units]) =>
          units.length < 2 ||
          !units.some((u) => u.unit === 'abutment') ||
          toothRuns(units.map((u) => u.number)).length !== 1,
      )
      .map(([g]) => g),
  );
  return items.map((i) => (i.bridgeGroup !== undefined && broken.has(i.bridgeGroup) ? withUnit(i, 'single') : i));
}

/** The bridges of a prescription as runs of teeth in chart order, for drawing their connectors. */
export function bridgesOf(items: readonly ToothItem[]): number[][] {
  const groups = new Map<number, number[]>();
  for (const i of items) {
    if (i.bridgeGroup === undefined || !i.unit || i.unit === 'single') continue;
    groups.set(i.bridgeGroup, [...(groups.get(i.bridgeGroup) ?? []), i.number]);
  }
  return [...groups.values()].map(sortTeeth);
}

/**
 * The prescription a case's name suggests ("Crown 16", "Bridge 34-36"): the teeth it names, a named range of three
 * or more joined as a bridge when the case's treatments include a pontic. Nothing when the name names no tooth.
 */
export function teethFromCase(
  cases: readonly { name: string; treatments: readonly string[] }[],
  system: ToothNumberingSystem,
): ToothItem[] {
  // One prescription serves every case of a batch: only cases of one name can share it.
  if (cases.length === 0 || cases.some((c) => c.name !== cases[0]!.name)) return [];
  const groups = teethInName(cases[0]!.name, system);
  const teeth = sortTeeth(groups.flat());
  const items = teeth.map((number) => ({ number }));
  const bridge = cases[0]!.treatments.includes('Pontic') && groups.some((g) => g.length > 2);
  return bridge ? joinAsBridges(items) : items;
}

export function setToothValue<K extends keyof ToothItem>(
  items: readonly ToothItem[],
  fdi: number,
  key: K,
  value: ToothItem[K],
): ToothItem[] {
  return items.map((i) => (i.number === fdi ? { ...i, [key]: value } : i));
}

/** Sets one value on every tooth (a shade for the whole bridge). */
export function setAllValue<K extends keyof ToothItem>(items: readonly ToothItem[], key: K, value: ToothItem[K]) {
  return items.map((i) => ({ ...i, [key]: value }));
}

/**
 * Copies one tooth's prescription to every tooth. What belongs to each tooth's place stays its own: its number,
 * its unit in a bridge, whether it is missing or an implant.
 */
export function copyToAll(items: readonly ToothItem[], fromFdi: number): ToothItem[] {
  const from = items.find((i) => i.number === fromFdi);
  if (!from) return [...items];
  const { number: _number, unit: _unit, bridgeGroup: _group, missing: _missing, implant: _implant, ...rest } = from;
  return items.map(({ number, unit, bridgeGroup, missing, implant }) => {
    const place = Object.fromEntries(
      Object.entries({ unit, bridgeGroup, missing, implant }).filter(([, v]) => v !== undefined),
    ) as Partial<ToothItem>;
    return { ...rest, ...place, number };
  });
}

const TEXT_KEYS = ['shade', 'stumpShade', 'crownCategory', 'crownType', 'material'] as const;
const FLAG_KEYS = ['missing', 'implant', 'inlayCore', 'edentulous', 'preOpScan'] as const;

/** The item as sent: text trimmed, empty text and unset flags left out, single units left plain. */
export function cleanTooth(item: ToothItem): ToothItem {
  const out: ToothItem = { number: item.number };
  for (const k of TEXT_KEYS) {
    const v = item[k]?.trim();
    if (v) (out as Record<string, unknown>)[k] = v;
  }
  if (item.method) out.method = item.method;
  if (item.unit && item.unit !== 'single' && item.bridgeGroup !== undefined) {
    out.unit = item.unit;
    out.bridgeGroup = item.bridgeGroup;
  }
  for (const k of FLAG_KEYS) if (item[k]) out[k] = true;
  return out;
}
