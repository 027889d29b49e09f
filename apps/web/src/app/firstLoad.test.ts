import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The login page is the first load and has a size budget (bench: ≤ 200 KB gzip). antd's runtime and theme alone
 * weigh about 80 KB, so nothing the login page loads before it draws may import antd: the app's start-up (main.tsx)
 * and the login page, through their static imports. Screens and dialogs that need antd bring it with their own code
 * (components/lazyThemed).
 */
const SRC = resolve(import.meta.dirname, '..');
const FIRST_LOAD = ['main.tsx', 'features/auth/pages/LoginPage.tsx'];
const HEAVY = /^(antd|@ant-design\/|rc-[a-z-]+)(\/|$)/;

/** The modules a file imports at load time: not `import type`, not `import()`. */
function staticImports(source: string): string[] {
  const found: string[] = [];
  const pattern = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(pattern)) if (!m[1]) found.push(m[2]!);
  return found;
}

function resolveLocal(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (/\.(tsx?)$/.test(candidate) && existsSync(candidate)) return candidate;
  return null;
}

/** Every package the first load imports, with the chain of files that brought it. */
function firstLoadPackages(): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const here = [...chain, file.slice(SRC.length + 1)];
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const next = resolveLocal(file, spec);
        if (next) walk(next, here);
      } else if (!packages.has(spec)) packages.set(spec, here);
    }
  };
  for (const root of FIRST_LOAD) walk(join(SRC, root), []);
  return packages;
}

describe('the login page first load', () => {
  it('reads imports as the bundler does (types and lazy imports left out)', () => {
    const source = [
      "import type { A } from 'antd';",
      "import { b,\n  c } from 'react';",
      "import './x.css';",
      "export { d } from './d';",
      "const e = () => import('antd/es/modal');",
    ].join('\n');
    expect(staticImports(source)).toEqual(['react', './x.css', './d']);
  });

  it('imports no antd: screens bring its theme and components with their own code', () => {
    const packages = firstLoadPackages();
    expect(packages.has('react')).toBe(true);
    const heavy = [...packages]
      .filter(([spec]) => HEAVY.test(spec))
      .map(([spec, chain]) => `${spec} ← ${chain.join(' ← ')}`);
    expect(heavy).toEqual([]);
  });
});
