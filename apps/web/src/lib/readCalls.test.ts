import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READ_CALLS } from './readCalls';

const SRC = join(__dirname, '..');
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** `http.post` / `http.get` / `http.write` calls with their path, generic arguments and line breaks allowed. */
const CALL = /http\.(post|get|write)(?:<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>)?\(\s*(?:'([^']+)'|([^'\s]))/g;

describe('writes are keyed', () => {
  it('sends every call that changes something with http.write, and only those', () => {
    const wrong: string[] = [];
    const used = new Set<string>();
    for (const file of sources(SRC)) {
      for (const m of readFileSync(file, 'utf8').matchAll(CALL)) {
        const [, how, path] = m;
        const where = relative(SRC, file);
        // A path built at run time: only a write may be (the writes that pick their call from the action).
        if (path === undefined) {
          if (how !== 'write') wrong.push(`${where}: a computed path sent with http.${how}`);
          continue;
        }
        used.add(path);
        if (how === 'post' && !READ_CALLS.has(path)) wrong.push(`${where}: ${path} changes something: http.write`);
        if (how === 'write' && READ_CALLS.has(path)) wrong.push(`${where}: ${path} is a read: http.post`);
      }
    }
    expect(wrong).toEqual([]);
    // The list holds no call the app no longer makes.
    expect([...READ_CALLS].filter((path) => !used.has(path))).toEqual([]);
  });
});
