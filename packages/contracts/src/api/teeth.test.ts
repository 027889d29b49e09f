import { describe, expect, it } from 'vitest';
import { CreateOrderBody, fdiToUniversal, toothLabel } from './orders.js';
import {
  defaultToothNumbering,
  prescriptionIssues,
  shadeGuideOf,
  spanBetween,
  teethInName,
  toothRuns,
  universalToFdi,
  VITA_3D_MASTER_SHADES,
  VITA_CLASSICAL_SHADES,
} from './teeth.js';

describe('tooth numbering', () => {
  it('converts FDI and Universal both ways for all 32 teeth', () => {
    const fdi = [11, 12, 13, 14, 15, 16, 17, 18, 21, 22, 23, 24, 25, 26, 27, 28];
    const all = [...fdi, ...fdi.map((n) => n + 20)];
    const universal = all.map(fdiToUniversal);
    expect(new Set(universal).size).toBe(32);
    expect(Math.min(...universal)).toBe(1);
    expect(Math.max(...universal)).toBe(32);
    for (const n of all) expect(universalToFdi(fdiToUniversal(n))).toBe(n);
    // Landmarks: the upper right third molar is 1, the upper left 16, lower left third molar 17, lower right 32.
    expect([18, 11, 21, 28, 38, 31, 41, 48].map(fdiToUniversal)).toEqual([1, 8, 9, 16, 17, 24, 25, 32]);
    expect(toothLabel(14, 'universal')).toBe('5');
    expect(toothLabel(14, 'fdi')).toBe('14');
    expect(() => universalToFdi(33)).toThrow(RangeError);
  });

  it('defaults to Universal in the United States and Canada, FDI elsewhere', () => {
    expect(defaultToothNumbering('us')).toBe('universal');
    expect(defaultToothNumbering('us', 'Canada')).toBe('universal');
    expect(defaultToothNumbering('us', 'CA')).toBe('universal');
    expect(defaultToothNumbering('us', 'Mexico')).toBe('fdi');
    expect(defaultToothNumbering('eu', 'Germany')).toBe('fdi');
    expect(defaultToothNumbering('uk', null)).toBe('fdi');
  });
});

describe('spans along an arch', () => {
  it('runs from one tooth to another in chart order, across the midline, never across arches', () => {
    expect(spanBetween(14, 16)).toEqual([16, 15, 14]);
    expect(spanBetween(16, 14)).toEqual([16, 15, 14]);
    expect(spanBetween(13, 22)).toEqual([13, 12, 11, 21, 22]);
    expect(spanBetween(34, 36)).toEqual([34, 35, 36]);
    expect(spanBetween(14, 44)).toEqual([]);
    expect(spanBetween(14, 14)).toEqual([14]);
  });

  it('splits teeth into runs of neighbours per arch', () => {
    expect(toothRuns([14, 16, 15, 11, 21, 36, 46])).toEqual([[16, 15, 14], [11, 21], [46], [36]]);
  });

  it('reads the teeth a case name names, in the user’s numbering', () => {
    expect(teethInName('Crown 16', 'fdi')).toEqual([[16]]);
    expect(teethInName('Bridge 34-36', 'fdi')).toEqual([[34, 35, 36]]);
    expect(teethInName('Bridge 14–16, crown 21', 'fdi')).toEqual([[16, 15, 14], [21]]);
    // Not teeth: a year, a shade, a number no tooth has, a range across arches.
    expect(teethInName('Case 2024 A3.5 19 14-44', 'fdi')).toEqual([]);
    // Nor digits inside a word or a code, nor the parts of a date.
    expect(teethInName('Bridge mi24xk7', 'fdi')).toEqual([]);
    expect(teethInName('Scan 2026-11-24, recall 24/11 at 11:45', 'fdi')).toEqual([]);
    expect(teethInName('Crowns #16 (upper), 26.', 'fdi')).toEqual([[16], [26]]);
    expect(teethInName('Kronen 16 und 26', 'fdi')).toEqual([[16], [26]]);
    expect(teethInName('Crown 3', 'universal')).toEqual([[16]]);
    expect(teethInName('Bridge 3-5', 'universal')).toEqual([[16, 15, 14]]);
  });
});

describe('shades', () => {
  it('knows both VITA guides and leaves free text unguided', () => {
    expect(VITA_CLASSICAL_SHADES).toHaveLength(16);
    expect(VITA_3D_MASTER_SHADES).toHaveLength(29);
    expect(shadeGuideOf('A3.5')).toBe('vitaClassical');
    expect(shadeGuideOf('3M2')).toBe('vita3dMaster');
    expect(shadeGuideOf('D1')).toBeNull();
    expect(shadeGuideOf('like the neighbour')).toBeNull();
  });
});

describe('bridges in a prescription', () => {
  const bridge = [
    { number: 14, unit: 'abutment' as const, bridgeGroup: 1 },
    { number: 15, unit: 'pontic' as const, bridgeGroup: 1, missing: true },
    { number: 16, unit: 'abutment' as const, bridgeGroup: 1 },
  ];
  it('accepts a three-unit bridge, a cantilever, splinted crowns and single crowns beside them', () => {
    expect(prescriptionIssues(bridge)).toEqual([]);
    expect(
      prescriptionIssues([
        { number: 13, unit: 'abutment', bridgeGroup: 2 },
        { number: 12, unit: 'pontic', bridgeGroup: 2 },
      ]),
    ).toEqual([]);
    expect(prescriptionIssues([...bridge, { number: 21 }, { number: 36, missing: true }])).toEqual([]);
  });

  it('names the item and the field of what cannot be made', () => {
    expect(
      prescriptionIssues([
        { number: 15, unit: 'pontic', bridgeGroup: 1 },
        { number: 16, unit: 'pontic', bridgeGroup: 1 },
      ]),
    ).toEqual([{ index: 0, field: 'unit', reason: 'noAbutment' }]);
    expect(prescriptionIssues([{ number: 15, unit: 'pontic' }])).toEqual([
      { index: 0, field: 'bridgeGroup', reason: 'noBridge' },
    ]);
    expect(prescriptionIssues([{ number: 15, bridgeGroup: 1 }])).toEqual([
      { index: 0, field: 'unit', reason: 'notInBridge' },
    ]);
    expect(
      prescriptionIssues([
        { number: 14, unit: 'abutment', bridgeGroup: 1 },
        { number: 16, unit: 'abutment', bridgeGroup: 1 },
      ]),
    ).toEqual([{ index: 0, field: 'bridgeGroup', reason: 'notAdjacent' }]);
    expect(
      prescriptionIssues([
        { number: 14, unit: 'abutment', bridgeGroup: 1 },
        { number: 44, unit: 'abutment', bridgeGroup: 1 },
      ]),
    ).toEqual([{ index: 0, field: 'bridgeGroup', reason: 'notAdjacent' }]);
    expect(prescriptionIssues([{ number: 14, unit: 'abutment', bridgeGroup: 1 }])).toEqual([
      { index: 0, field: 'bridgeGroup', reason: 'tooShort' },
    ]);
    expect(prescriptionIssues([{ number: 14 }, { number: 14 }])).toEqual([
      { index: 1, field: 'number', reason: 'duplicate' },
    ]);
    expect(prescriptionIssues([{ ...bridge[0]!, missing: true }, bridge[1]!, bridge[2]!])).toEqual([
      { index: 0, field: 'missing', reason: 'missingAbutment' },
    ]);
    expect(prescriptionIssues([{ ...bridge[0]!, missing: true, implant: true }, bridge[1]!, bridge[2]!])).toEqual([]);
    expect(prescriptionIssues([bridge[0]!, { ...bridge[1]!, implant: true }, bridge[2]!])).toEqual([
      { index: 1, field: 'implant', reason: 'ponticImplant' },
    ]);
  });

  it('refuses a new order’s shade of no guide at the field', () => {
    const body = (teeth: unknown) =>
      CreateOrderBody.safeParse({
        caseCodes: ['C'],
        partnerCode: 'P',
        orderType: 'restoration',
        workTypes: ['Crown'],
        teeth,
      });
    expect(body([{ number: 16, shade: 'A2', stumpShade: 'ND2' }]).success).toBe(true);
    expect(body([{ number: 16, shade: 'A2 and a bit' }]).error?.issues[0]?.path).toEqual(['teeth', 0, 'shade']);
    expect(body([{ number: 16, stumpShade: 'A9' }]).error?.issues[0]?.path).toEqual(['teeth', 0, 'stumpShade']);
    // A bridge as a whole is the service's check (prescriptionIssues): the schema takes a lone pontic.
    expect(body([{ number: 15, unit: 'pontic', bridgeGroup: 1 }]).success).toBe(true);
  });
});
