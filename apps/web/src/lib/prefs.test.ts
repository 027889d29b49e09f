// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { loadPrefs, savePrefs } from './prefs';

beforeEach(() => localStorage.clear());

describe('local preferences', () => {
  it('uses the defaults when nothing is stored', () => {
    expect(loadPrefs()).toEqual({ caseDateRangeDays: 30, orderDateRangeDays: 30, exportTypes: ['stl', 'ply', 'pdf'] });
  });

  it('fills missing keys and keeps stored ones', () => {
    localStorage.setItem('portal.prefs', JSON.stringify({ caseDateRangeDays: 7, extra: true }));
    expect(loadPrefs()).toMatchObject({
      caseDateRangeDays: 7,
      orderDateRangeDays: 30,
      exportTypes: ['stl', 'ply', 'pdf'],
      extra: true,
    });
  });

  it('survives corrupt JSON', () => {
    localStorage.setItem('portal.prefs', '{not json');
    expect(loadPrefs().orderDateRangeDays).toBe(30);
  });

  it('persists changes', () => {
    loadPrefs();
    savePrefs({ exportTypes: ['stl'] });
    expect(JSON.parse(localStorage.getItem('portal.prefs')!)).toMatchObject({
      exportTypes: ['stl'],
      caseDateRangeDays: 30,
    });
  });
});
