import { describe, expect, it } from 'vitest';
import { access } from './access.js';
import { checkPassword } from './password.js';
import { formatSize } from './format.js';
import { collectPermissions, flattenScreens, pruneMenu, withOwnSpace } from './menu.js';
import { ERRORS, IGNORED_ERROR_CODES, errorByCode } from './errors.js';
import { normalizeLanguage, normalizeToothNumbering } from './enums.js';
import type { MenuItem } from './api/platform.js';

describe('checkPassword (§5)', () => {
  it.each([
    ['Dental#2026', { len: true, exclude: true, include: true, valid: true }],
    ['Short#1', { len: false, exclude: true, include: true, valid: false }],
    ['A'.repeat(19) + 'a1', { len: false, exclude: true, include: true, valid: false }],
    ['alllowercase1', { len: true, exclude: true, include: false, valid: false }],
    ['Lower1234Upper', { len: true, exclude: true, include: true, valid: true }],
    ['With space1A', { len: true, exclude: false, include: true, valid: false }],
    ['Ümlaut#2026', { len: true, exclude: false, include: true, valid: false }],
    ['"\\|,.<>/?`~aB1', { len: true, exclude: true, include: true, valid: true }],
  ])('%s', (pw, expected) => {
    expect(checkPassword(pw)).toMatchObject(expected);
  });
  it('rates strength', () => {
    expect(checkPassword('abc').strength).toBe('weak');
    expect(checkPassword('Dental#2026').strength).toBe('medium');
    expect(checkPassword('Dental#2026-Long').strength).toBe('strong');
  });
});

describe('access (§6)', () => {
  it('passes with the wildcard or any one required permission', () => {
    expect(access(['*:*:*'], ['x:y'])).toBe(true);
    expect(access(['a:b', 'c:d'], ['x:y', 'c:d'])).toBe(true);
    expect(access(['a:b'], 'a:b')).toBe(true);
    expect(access(['a:b'], ['x:y'])).toBe(false);
  });
  it('denies an empty or missing required list, and an empty user list', () => {
    expect(access(['*:*:*'], [])).toBe(false);
    expect(access(['*:*:*'], undefined)).toBe(false);
    expect(access([], ['a:b'])).toBe(false);
    expect(access(undefined, ['a:b'])).toBe(false);
  });
});

const item = (over: Partial<MenuItem>): MenuItem => ({
  code: 'x',
  name: 'x',
  path: null,
  icon: null,
  showFlag: true,
  showAlways: false,
  component: null,
  type: 1,
  apiPermissions: [],
  children: [],
  ...over,
});

describe('menu helpers (§2)', () => {
  it('drops items with neither children nor component, and buttons', () => {
    const tree = [
      item({ code: 'empty' }),
      item({
        code: 'group',
        children: [
          item({ code: 'leaf', component: 'a', path: '/a' }),
          item({ code: 'btn', type: 2, apiPermissions: ['p:q'] }),
        ],
      }),
      item({ code: 'emptyGroup', children: [item({ code: 'nothing' })] }),
    ];
    const pruned = pruneMenu(tree);
    expect(pruned.map((i) => i.code)).toEqual(['group']);
    expect(pruned[0]!.children.map((i) => i.code)).toEqual(['leaf']);
    expect(collectPermissions(tree)).toEqual(['p:q']);
    expect(flattenScreens(pruned).map((i) => i.path)).toEqual(['/a']);
  });
  it('always adds own space when missing, once', () => {
    expect(withOwnSpace([]).map((i) => i.component)).toEqual(['ownSpace']);
    const has = [item({ code: 'g', children: [item({ component: 'ownSpace', path: '/own-space' })] })];
    expect(withOwnSpace(has)).toHaveLength(1);
  });
});

describe('formatSize (§5)', () => {
  it('uses base 1024, B to YB, 3 decimals', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1000)).toBe('1000 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(1024 ** 2 * 2.12345)).toBe('2.123 MB');
    expect(formatSize(1024 ** 8 * 3)).toBe('3 YB');
    expect(formatSize(1024 ** 9)).toBe('1024 YB');
    expect(formatSize(1536, 0)).toBe('2 KB');
  });

  it("writes the number in the reader's language when given one", () => {
    expect(formatSize(1024 ** 2 * 3.925, 3, 'de')).toBe('3,925 MB');
    expect(formatSize(1024 ** 2 * 3.925, 3, 'en')).toBe('3.925 MB');
    expect(formatSize(1024 ** 9, 3, 'de')).toBe('1024 YB');
    expect(formatSize(1536, 0, 'fr')).toBe('2 KB');
  });
});

describe('error catalogue (§8)', () => {
  it('has unique codes, each with an HTTP status of its class', () => {
    const codes = Object.values(ERRORS).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const e of Object.values(ERRORS)) expect(e.status).toBeGreaterThanOrEqual(200);
    for (const code of IGNORED_ERROR_CODES) expect(errorByCode(code), String(code)).toBeTruthy();
    expect(errorByCode(10503)?.status).toBe(503);
  });
});

describe('normalisers', () => {
  it('maps browser languages onto the 21', () => {
    expect(normalizeLanguage('de-AT')).toBe('de');
    expect(normalizeLanguage('zh-Hant-TW')).toBe('zh-TW');
    expect(normalizeLanguage('zh')).toBe('zh-CN');
    expect(normalizeLanguage('nb-NO')).toBe('no');
    expect(normalizeLanguage('xx')).toBe('en');
    expect(normalizeLanguage(undefined)).toBe('en');
  });
  it("treats anything but 'universal' as FDI", () => {
    expect(normalizeToothNumbering('universal')).toBe('universal');
    expect(normalizeToothNumbering('Universal')).toBe('fdi');
    expect(normalizeToothNumbering(null)).toBe('fdi');
  });
});

describe('ageInYears (§3)', () => {
  it('counts whole years, birthdays included', async () => {
    const { ageInYears } = await import('./dates.js');
    const today = new Date(Date.UTC(2026, 10, 21));
    expect(ageInYears('1990-11-21', today)).toBe(36);
    expect(ageInYears('1990-11-22', today)).toBe(35);
    expect(ageInYears('2000-02-29', today)).toBe(26);
    expect(ageInYears('2027-01-01', today)).toBeNull();
    expect(ageInYears('', today)).toBeNull();
    expect(ageInYears('21.11.1990', today)).toBeNull();
  });
});
