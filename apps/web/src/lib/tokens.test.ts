// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { tokens } from './tokens';

beforeEach(() => localStorage.clear());

describe('tokens on sign-in', () => {
  it('clears everything but the keep-list and keeps the refresh token only with saveLogin', () => {
    localStorage.setItem('portal.lang', 'de');
    localStorage.setItem('portal.theme', 'dark');
    localStorage.setItem('portal.prefs', '{}');
    localStorage.setItem('portal.shareSign', 'x');
    localStorage.setItem('other', 'y');
    tokens.signIn('A', 'R', false);
    expect(localStorage.getItem('portal.lang')).toBe('de');
    expect(localStorage.getItem('portal.theme')).toBe('dark');
    expect(localStorage.getItem('portal.prefs')).toBe('{}');
    expect(localStorage.getItem('portal.shareSign')).toBeNull();
    expect(localStorage.getItem('other')).toBeNull();
    expect(tokens.access()).toBe('A');
    expect(tokens.refresh()).toBe('');
    tokens.signIn('A2', 'R2', true);
    expect(tokens.refresh()).toBe('R2');
  });
});
