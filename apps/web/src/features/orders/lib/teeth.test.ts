import { describe, expect, it } from 'vitest';
import { prescriptionIssues } from '@portal/contracts';
import {
  bridgesOf,
  cleanTooth,
  itemsAfterClick,
  joinAsBridges,
  selectTooth,
  separateBridges,
  teethFromCase,
} from './teeth';

describe('selecting on the chart', () => {
  it('toggles with a click and adds a span with a shift-click from the last tooth clicked', () => {
    expect(selectTooth([], 14, null, false)).toEqual([14]);
    expect(selectTooth([14], 16, 14, true)).toEqual([16, 15, 14]);
    expect(selectTooth([16, 15, 14], 15, 16, false)).toEqual([16, 14]);
    // Across the midline, and either direction.
    expect(selectTooth([22], 13, 22, true)).toEqual([13, 12, 11, 21, 22]);
    // Across arches or without an anchor, a shift-click is a plain click.
    expect(selectTooth([14], 44, 14, true)).toEqual([14, 44]);
    expect(selectTooth([], 44, null, true)).toEqual([44]);
  });

  it('joins each run of neighbours into a bridge with abutments at its ends and pontics between', () => {
    const items = joinAsBridges([
      { number: 16 },
      { number: 15 },
      { number: 14 },
      { number: 21 },
      { number: 36 },
      { number: 37 },
    ]);
    expect(items).toEqual([
      { number: 16, unit: 'abutment', bridgeGroup: 1 },
      { number: 15, unit: 'pontic', bridgeGroup: 1 },
      { number: 14, unit: 'abutment', bridgeGroup: 1 },
      { number: 21 },
      { number: 36, unit: 'abutment', bridgeGroup: 2 },
      { number: 37, unit: 'abutment', bridgeGroup: 2 },
    ]);
    expect(prescriptionIssues(items)).toEqual([]);
    expect(bridgesOf(items)).toEqual([
      [16, 15, 14],
      [36, 37],
    ]);
    expect(separateBridges(items).every((i) => i.unit === undefined && i.bridgeGroup === undefined)).toBe(true);
  });

  it('turns what is left of a bridge into single teeth when a tooth leaves it', () => {
    const bridge = joinAsBridges([{ number: 16 }, { number: 15 }, { number: 14 }]);
    // Without its abutment 14 the pontic 15 has nothing on one side: no bridge any more.
    const left = itemsAfterClick(bridge, 14, null, false);
    expect(left.map((i) => i.number)).toEqual([16, 15]);
    expect(prescriptionIssues(left)).toEqual([]);
    // Without the pontic, the gap splits it.
    expect(prescriptionIssues(itemsAfterClick(bridge, 15, null, false))).toEqual([]);
  });

  it('sends single units plain and bridge units with their group', () => {
    expect(cleanTooth({ number: 16, unit: 'single', shade: ' A2 ', stumpShade: '' })).toEqual({
      number: 16,
      shade: 'A2',
    });
    expect(cleanTooth({ number: 15, unit: 'pontic', bridgeGroup: 1, missing: true })).toEqual({
      number: 15,
      unit: 'pontic',
      bridgeGroup: 1,
      missing: true,
    });
  });
});

describe('teeth from the case', () => {
  it('reads the name, joins a named range into a bridge when a pontic is among the treatments', () => {
    expect(teethFromCase([{ name: 'Crown 16', treatments: ['Crown'] }], 'fdi')).toEqual([{ number: 16 }]);
    expect(teethFromCase([{ name: 'Bridge 34-36', treatments: ['Crown', 'Pontic'] }], 'fdi')).toEqual([
      { number: 34, unit: 'abutment', bridgeGroup: 1 },
      { number: 35, unit: 'pontic', bridgeGroup: 1 },
      { number: 36, unit: 'abutment', bridgeGroup: 1 },
    ]);
    expect(teethFromCase([{ name: 'Smith', treatments: ['Crown'] }], 'fdi')).toEqual([]);
    // A batch of cases with different names shares no teeth.
    expect(
      teethFromCase(
        [
          { name: 'Crown 16', treatments: [] },
          { name: 'Crown 26', treatments: [] },
        ],
        'fdi',
      ),
    ).toEqual([]);
  });
});
