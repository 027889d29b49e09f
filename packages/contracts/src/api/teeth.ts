import type { ToothNumberingSystem } from '../enums.js';

/** VITA classical A1–D4, in the guide's order. */
export const VITA_CLASSICAL_SHADES = [
  'A1',
  'A2',
  'A3',
  'A3.5',
  'A4',
  'B1',
  'B2',
  'B3',
  'B4',
  'C1',
  'C2',
  'C3',
  'C4',
  'D2',
  'D3',
  'D4',
] as const;
/** VITA Toothguide 3D-Master: the three bleached shades, then lightness 1–5 by chroma and hue. */
export const VITA_3D_MASTER_SHADES = [
  '0M1',
  '0M2',
  '0M3',
  '1M1',
  '1M2',
  '2L1.5',
  '2L2.5',
  '2M1',
  '2M2',
  '2M3',
  '2R1.5',
  '2R2.5',
  '3L1.5',
  '3L2.5',
  '3M1',
  '3M2',
  '3M3',
  '3R1.5',
  '3R2.5',
  '4L1.5',
  '4L2.5',
  '4M1',
  '4M2',
  '4M3',
  '4R1.5',
  '4R2.5',
  '5M1',
  '5M2',
  '5M3',
] as const;
export const TOOTH_SHADES = [...VITA_CLASSICAL_SHADES, ...VITA_3D_MASTER_SHADES] as const;
export type ToothShade = (typeof TOOTH_SHADES)[number];
/** The prepared tooth's colour (under all-ceramic work): the IPS Natural Die Material guide ND1–ND9. */
export const STUMP_SHADES = ['ND1', 'ND2', 'ND3', 'ND4', 'ND5', 'ND6', 'ND7', 'ND8', 'ND9'] as const;
export const SHADE_GUIDES = ['vitaClassical', 'vita3dMaster'] as const;
export type ShadeGuide = (typeof SHADE_GUIDES)[number];

/** The guide a shade belongs to; null for the free text of orders made before shades were chosen from guides. */
export function shadeGuideOf(shade: string | undefined | null): ShadeGuide | null {
  if (!shade) return null;
  if ((VITA_CLASSICAL_SHADES as readonly string[]).includes(shade)) return 'vitaClassical';
  if ((VITA_3D_MASTER_SHADES as readonly string[]).includes(shade)) return 'vita3dMaster';
  return null;
}

/** A tooth of a prescription on its own, or one unit of a bridge: an abutment carries it, a pontic spans a gap. */
export const TOOTH_UNITS = ['single', 'abutment', 'pontic'] as const;
/** Where the laboratory's work on a tooth stands while it produces the order (a bridge in design, a crown milled…). */
export const TOOTH_STAGES = ['design', 'milling', 'finishing', 'done'] as const;
export type ToothStage = (typeof TOOTH_STAGES)[number];
export type ToothUnit = (typeof TOOTH_UNITS)[number];

/** The upper arch facing the patient: the patient's right (18) on the viewer's left … 28. */
export const UPPER_ARCH: readonly number[] = [18, 17, 16, 15, 14, 13, 12, 11, 21, 22, 23, 24, 25, 26, 27, 28];
/** The lower arch facing the patient: 48 on the viewer's left … 38. */
export const LOWER_ARCH: readonly number[] = [48, 47, 46, 45, 44, 43, 42, 41, 31, 32, 33, 34, 35, 36, 37, 38];

export function archOf(fdi: number): 'upper' | 'lower' | null {
  if (UPPER_ARCH.includes(fdi)) return 'upper';
  if (LOWER_ARCH.includes(fdi)) return 'lower';
  return null;
}
const archTeeth = (fdi: number) => (archOf(fdi) === 'upper' ? UPPER_ARCH : LOWER_ARCH);

/**
 * The teeth from one tooth to another along the arch, both included, in chart order (across the midline:
 * 13 to 22 is 13 12 11 21 22). Empty when the two are in different arches: a span never crosses from one to the other.
 */
export function spanBetween(from: number, to: number): number[] {
  const arch = archOf(from);
  if (!arch || arch !== archOf(to)) return [];
  const teeth = archTeeth(from);
  const [a, b] = [teeth.indexOf(from), teeth.indexOf(to)].sort((x, y) => x - y) as [number, number];
  return teeth.slice(a, b + 1);
}

/** The teeth split into runs of neighbours along each arch (upper arch first), each run in chart order. */
export function toothRuns(numbers: readonly number[]): number[][] {
  const runs: number[][] = [];
  for (const arch of [UPPER_ARCH, LOWER_ARCH]) {
    let run: number[] = [];
    for (const fdi of arch) {
      if (numbers.includes(fdi)) run.push(fdi);
      else if (run.length) {
        runs.push(run);
        run = [];
      }
    }
    if (run.length) runs.push(run);
  }
  return runs;
}

/** FDI (ISO 3950) from the Universal number (1–32). */
export function universalToFdi(universal: number): number {
  if (universal >= 1 && universal <= 8) return 19 - universal;
  if (universal >= 9 && universal <= 16) return 12 + universal;
  if (universal >= 17 && universal <= 24) return 55 - universal;
  if (universal >= 25 && universal <= 32) return 16 + universal;
  throw new RangeError(`not a Universal tooth number: ${universal}`);
}

/** The numbering dentists of a region read: Universal in the United States and Canada, FDI elsewhere. */
export function defaultToothNumbering(region: string | null, country?: string | null): ToothNumberingSystem {
  const c = (country ?? '').trim().toLowerCase();
  const northAmerican = ['us', 'usa', 'united states', 'united states of america', 'ca', 'can', 'canada'].includes(c);
  return northAmerican || (region === 'us' && !c) ? 'universal' : 'fdi';
}

/** What a prescription's tooth item holds for the checks below. */
interface PrescribedTooth {
  number: number;
  unit?: ToothUnit;
  bridgeGroup?: number;
  missing?: boolean;
  implant?: boolean;
}
export interface PrescriptionIssue {
  /** The item's index in the list. */
  index: number;
  field: 'number' | 'unit' | 'bridgeGroup' | 'missing' | 'implant';
  reason:
    | 'duplicate'
    | 'noBridge'
    | 'notInBridge'
    | 'noAbutment'
    | 'tooShort'
    | 'notAdjacent'
    | 'missingAbutment'
    | 'ponticImplant';
}

/**
 * What makes a prescription impossible to make, item by item: each tooth once; abutments and pontics belong to a
 * bridge and a bridge's teeth to no single crown; a bridge has two units or more, at least one abutment, and its
 * teeth are neighbours in one arch; an abutment on a missing tooth needs an implant; a pontic sits on no implant.
 */
export function prescriptionIssues(teeth: readonly PrescribedTooth[]): PrescriptionIssue[] {
  const issues: PrescriptionIssue[] = [];
  const seen = new Set<number>();
  teeth.forEach((t, index) => {
    if (seen.has(t.number)) issues.push({ index, field: 'number', reason: 'duplicate' });
    seen.add(t.number);
    const unit = t.unit ?? 'single';
    if (unit !== 'single' && t.bridgeGroup === undefined)
      issues.push({ index, field: 'bridgeGroup', reason: 'noBridge' });
    if (unit === 'single' && t.bridgeGroup !== undefined) issues.push({ index, field: 'unit', reason: 'notInBridge' });
    if (unit === 'abutment' && t.missing && !t.implant)
      issues.push({ index, field: 'missing', reason: 'missingAbutment' });
    if (unit === 'pontic' && t.implant) issues.push({ index, field: 'implant', reason: 'ponticImplant' });
  });
  const groups = new Map<number, number[]>();
  teeth.forEach((t, index) => {
    if (t.bridgeGroup === undefined || (t.unit ?? 'single') === 'single') return;
    groups.set(t.bridgeGroup, [...(groups.get(t.bridgeGroup) ?? []), index]);
  });
  for (const indexes of groups.values()) {
    const first = indexes[0]!;
    if (indexes.length < 2) {
      issues.push({ index: first, field: 'bridgeGroup', reason: 'tooShort' });
      continue;
    }
    if (!indexes.some((i) => teeth[i]!.unit === 'abutment')) {
      issues.push({
        index: indexes.find((i) => teeth[i]!.unit === 'pontic') ?? first,
        field: 'unit',
        reason: 'noAbutment',
      });
    }
    if (toothRuns(indexes.map((i) => teeth[i]!.number)).length !== 1) {
      issues.push({ index: first, field: 'bridgeGroup', reason: 'notAdjacent' });
    }
  }
  return issues;
}

/**
 * The teeth a case's name names, read in the user's numbering ("Crown 16", "Bridge 34-36", "14, 15"): single
 * numbers and ranges along one arch. Numbers that are no tooth in that system are left out, and so are digits inside
 * a word, a code or a date.
 */
export function teethInName(name: string, system: ToothNumberingSystem): number[][] {
  const toFdi = (n: number): number | null => {
    if (system === 'universal') return n >= 1 && n <= 32 ? universalToFdi(n) : null;
    return archOf(n) ? n : null;
  };
  const groups: number[][] = [];
  // A tooth number stands alone: not part of a word or a code ("mi24x", "A3.5"), nor of a date ("2026-11-24", "24/11").
  const TOOTH = /(?<![\p{L}\p{N}]|\p{N}[.\-–—/:])(\d{1,2})(?:\s*[-–—]\s*(\d{1,2}))?(?![\p{L}\p{N}]|[.\-–—/:]\p{N})/gu;
  for (const m of name.matchAll(TOOTH)) {
    const from = toFdi(Number(m[1]));
    if (from === null) continue;
    if (m[2] === undefined) {
      groups.push([from]);
      continue;
    }
    const to = toFdi(Number(m[2]));
    const span = to === null ? [] : spanBetween(from, to);
    if (span.length) groups.push(span);
  }
  return groups;
}
