/// <reference types="node" />
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './enums.js';

const ROOT = resolve(import.meta.dirname, '../../..');
/** Every locale tree of the project: messages shared by server and web, and the web app's UI strings. */
const TREES = [join(ROOT, 'packages/contracts/locales'), join(ROOT, 'apps/web/src/locales')];

type Tree = { [k: string]: string | Tree };
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe.each(TREES.filter(existsSync))('locales in %s', (dir) => {
  const namespaces = readdirSync(join(dir, 'en')).filter((f) => f.endsWith('.json'));
  it('has a folder for each of the 21 languages and no other', () => {
    expect(readdirSync(dir).sort()).toEqual([...LANGUAGES].sort());
  });
  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    it(`${lang}: every key of every namespace, with the same placeholders, translated`, () => {
      for (const ns of namespaces) {
        const en = flatten(JSON.parse(readFileSync(join(dir, 'en', ns), 'utf8')));
        const file = join(dir, lang, ns);
        expect(existsSync(file), `${lang}/${ns} exists`).toBe(true);
        const other = flatten(JSON.parse(readFileSync(file, 'utf8')));
        expect([...other.keys()].sort(), `${lang}/${ns} keys`).toEqual([...en.keys()].sort());
        let same = 0;
        for (const [key, text] of en) {
          expect(placeholders(other.get(key)!), `${lang}/${ns}:${key} placeholders`).toEqual(placeholders(text));
          expect(other.get(key)!.trim(), `${lang}/${ns}:${key} empty`).not.toBe('');
          if (other.get(key) === text && /[a-z]{4,}/i.test(text.replace(/\{\{\w+\}\}/g, ''))) same += 1;
        }
        // Brand names, codes and loanwords (Dashboard, Account, OEM) may stay; most strings must not be English copies.
        expect(same / en.size, `${lang}/${ns}: share of strings left in English`).toBeLessThan(0.3);
      }
    });
  }
});

describe('menu names', () => {
  // The menus and their buttons are rows the migrations insert; the role editor shows each by its `menu.*` name, so
  // a name without a translation would show as a raw code there.
  it('every menu entry a migration makes has its name in the layout namespace', () => {
    const dir = join(ROOT, 'apps/server/migrations');
    const names = new Set(
      readdirSync(dir)
        .filter((f) => f.endsWith('.sql'))
        .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/'(menu\.[A-Za-z]+)'/g)].map((m) => m[1]!)),
    );
    expect(names.size).toBeGreaterThan(40);
    const layout = flatten(JSON.parse(readFileSync(join(ROOT, 'apps/web/src/locales/en/layout.json'), 'utf8')));
    expect([...names].filter((n) => !layout.has(n))).toEqual([]);
  });
});
