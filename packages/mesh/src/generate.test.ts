import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { computeBounds, generateArch, generateBite } from './index.js';

describe('generateArch', () => {
  for (const triangles of [100_000, 300_000]) {
    for (const jaw of ['upper', 'lower'] as const) {
      it(`${jaw} ${triangles}: triangle count within ±5 %, plausible size and colours`, () => {
        const m = generateArch({ jaw, triangles, seed: 5 });
        const n = m.indices.length / 3;
        expect(Math.abs(n - triangles) / triangles).toBeLessThan(0.05);
        const v = m.positions.length / 3;
        expect(m.colors.length).toBe(v * 3);
        for (let i = 0; i < m.indices.length; i += 101) expect(m.indices[i]).toBeLessThan(v);
        const b = computeBounds(m.positions);
        const width = b.max[0] - b.min[0];
        const depth = b.max[1] - b.min[1];
        const height = b.max[2] - b.min[2];
        expect(width).toBeGreaterThan(50);
        expect(width).toBeLessThan(65);
        expect(depth).toBeGreaterThan(35);
        expect(depth).toBeLessThan(60);
        expect(height).toBeGreaterThan(12);
        expect(height).toBeLessThan(30);
        // both pink gum and ivory teeth are present
        let pink = 0,
          ivory = 0;
        for (let i = 0; i < v; i++) {
          const r = m.colors[i * 3]!,
            g = m.colors[i * 3 + 1]!,
            bl = m.colors[i * 3 + 2]!;
          if (r > g + 50 && r > bl + 40) pink++;
          else if (r > 190 && g > 170 && bl > 140) ivory++;
        }
        expect(pink / v).toBeGreaterThan(0.2);
        expect(ivory / v).toBeGreaterThan(0.2);
      });
    }
  }

  it('is deterministic for a seed and varies between seeds', () => {
    const a = generateArch({ jaw: 'lower', triangles: 20_000, seed: 9 });
    const b = generateArch({ jaw: 'lower', triangles: 20_000, seed: 9 });
    const c = generateArch({ jaw: 'lower', triangles: 20_000, seed: 10 });
    expect(a.positions).toEqual(b.positions);
    expect(a.positions).not.toEqual(c.positions);
  });

  it('upper sits above lower (in occlusion) and the bite lies between them', () => {
    const up = computeBounds(generateArch({ jaw: 'upper', triangles: 20_000, seed: 1 }).positions);
    const lo = computeBounds(generateArch({ jaw: 'lower', triangles: 20_000, seed: 1 }).positions);
    const bite = generateBite({ seed: 1, triangles: 4000 });
    const bb = computeBounds(bite.positions);
    expect(up.max[2]).toBeGreaterThan(lo.max[2]);
    expect(bb.min[2]).toBeGreaterThan(lo.min[2]);
    expect(bb.max[2]).toBeLessThan(up.max[2]);
    expect(Math.abs(bite.indices.length / 3 - 4000) / 4000).toBeLessThan(0.1);
  });

  it('generates 1M triangles quickly', () => {
    const t0 = performance.now();
    const m = generateArch({ jaw: 'upper', triangles: 1_000_000, seed: 1 });
    const ms = performance.now() - t0;
    expect(Math.abs(m.indices.length / 3 - 1e6)).toBeLessThan(50_000);
    expect(ms).toBeLessThan(5000);
  });
});

describe('browser-safety', () => {
  it('no browser-safe module imports node built-ins', () => {
    const dir = dirname(fileURLToPath(import.meta.url));
    const nodeOnly = new Set(['node.ts', 'generate-cli.ts']);
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !nodeOnly.has(e.name))
          files.push(join(d, e.name));
      }
    };
    walk(dir);
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      expect(src, f).not.toMatch(/from ['"](node:|fs|path|zlib|crypto|url)['"/]/);
      expect(src, f).not.toMatch(/\bprocess\.|\bBuffer\b/);
    }
  });
});
