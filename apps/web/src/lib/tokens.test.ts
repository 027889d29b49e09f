// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { pastHalfLife, tokens } from './tokens';

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

describe('watching the access token', () => {
  it('hears changes made here and in another tab, until stopped', () => {
    let heard = 0;
    const stop = tokens.watch(() => (heard += 1));
    tokens.set('A', 'R');
    tokens.clear();
    // Another tab renewed it (the storage event of that tab's write), or wrote something else.
    window.dispatchEvent(new StorageEvent('storage', { key: 'portal.accessToken', newValue: 'B' }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'portal.theme', newValue: 'dark' }));
    expect(heard).toBe(3);
    stop();
    tokens.set('C', '');
    window.dispatchEvent(new StorageEvent('storage', { key: 'portal.accessToken', newValue: 'D' }));
    expect(heard).toBe(3);
  });

  it('tells a token past half its life, when the server renews it', () => {
    const jwt = (claims: object) => `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.s`;
    const token = jwt({ sub: 'u', iat: 1_000, exp: 1_900 });
    expect(pastHalfLife(token, 1_449_000)).toBe(false);
    expect(pastHalfLife(token, 1_450_000)).toBe(true);
    expect(pastHalfLife('not-a-token')).toBe(false);
    expect(pastHalfLife(jwt({ sub: 'u' }))).toBe(false);
  });
});
