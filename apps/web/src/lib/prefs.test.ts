// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { forgetShareSign, loadPrefs, rememberShareSign, savePrefs, shareSign } from './prefs';

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

describe('share signs', () => {
  it('are kept per share code until forgotten, and survive corrupt storage', () => {
    rememberShareSign('codeA', 1, 'sign-a');
    rememberShareSign('codeB', 2, 'sign-b');
    expect(shareSign('codeA')).toBe('sign-a');
    forgetShareSign('codeA');
    expect(shareSign('codeA')).toBeUndefined();
    expect(shareSign('codeB')).toBe('sign-b');
    localStorage.setItem('portal.shareSign', '{not json');
    expect(shareSign('codeB')).toBeUndefined();
  });
});
