import { describe, expect, it } from 'vitest';
import { foldForSearch, matchesSearch, searchable } from './selectSearch';

describe('select search', () => {
  it('ignores case and accents, including letters without a combining mark', () => {
    expect(foldForSearch('Zürich')).toBe('zurich');
    expect(foldForSearch('Ærø Økonomi')).toBe('aero okonomi');
    expect(foldForSearch('Łódź Straße')).toBe('lodz strasse');
    expect(foldForSearch('ŞİŞLİ')).toBe('sisli');
  });

  it('finds a label by any part of it, and nothing for other text', () => {
    expect(matchesSearch('zur', 'Zürich')).toBe(true);
    expect(matchesSearch('RICH', 'Zürich')).toBe(true);
    expect(matchesSearch('  ÉLÈ ', 'Dr. Hélène Martin')).toBe(true);
    expect(matchesSearch('bern', 'Zürich')).toBe(false);
    expect(matchesSearch('日本', '日本語')).toBe(true);
    expect(matchesSearch('1', 12)).toBe(true);
    expect(matchesSearch('x', undefined)).toBe(false);
  });

  it('gives the select a search that filters by label', () => {
    const { filterOption } = searchable.showSearch;
    expect(filterOption('sao', { label: 'São Paulo' })).toBe(true);
    expect(filterOption('rio', { label: 'São Paulo' })).toBe(false);
    expect(filterOption('sao')).toBe(false);
  });
});
