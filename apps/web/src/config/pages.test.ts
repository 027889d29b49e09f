import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NAMESPACES } from '../lib/i18n';

const here = dirname(fileURLToPath(import.meta.url));
/** Every page module the routes load, by the paths pages.ts imports. */
const pageFiles = [
  ...new Set(
    [...readFileSync(resolve(here, 'pages.ts'), 'utf8').matchAll(/import\('(\.\.\/features\/[^']+)'\)/g)].map(
      (m) => `${resolve(here, m[1]!)}.tsx`,
    ),
  ),
];

/** The translation namespaces a file names in useTranslation(…) calls. */
function namespacesUsed(source: string): string[] {
  const used = new Set<string>();
  for (const call of source.matchAll(/useTranslation\(\s*(\[[^\]]*\]|'[^']*')/g))
    for (const ns of call[1]!.matchAll(/'([^']+)'/g)) used.add(ns[1]!);
  return [...used];
}

/** The namespaces a page module declares for the route to load with it. */
function namespacesDeclared(source: string): string[] {
  const declared = /export const namespaces = \[([^\]]*)\]/.exec(source)?.[1] ?? '';
  return [...declared.matchAll(/'([^']+)'/g)].map((m) => m[1]!);
}

describe('page modules', () => {
  it('are found', () => {
    expect(pageFiles.length).toBeGreaterThan(30);
  });

  // The route loads a page's namespaces with its code: no key shows raw while they arrive (spec: every string translated).
  it.each(pageFiles.map((f) => [f.slice(f.indexOf('features/')), f]))(
    '%s declares the namespaces it uses beyond those loaded at start-up',
    (_name, file) => {
      const source = readFileSync(file, 'utf8');
      const missing = namespacesUsed(source).filter(
        (ns) => !(NAMESPACES as readonly string[]).includes(ns) && !namespacesDeclared(source).includes(ns),
      );
      expect(missing).toEqual([]);
    },
  );
});
