import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The gate for server-paged lists: a screen whose pager takes its total from the server keeps its page in range
 * (usePageInRange, or the shared ListTable which calls it), so a kept link to page 7 of a list that shrank, or the
 * last row deleted from the last page, shows the last page instead of an empty table.
 */
const SRC = join(import.meta.dirname, '..');
const SERVER_TOTAL = /\btotal[:=]\s*\{?\s*[\w.?]+\.data\?\.total\b/;
const KEEPS_RANGE = /\busePageInRange\(|<ListTable\b/;

function screens(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? screens(join(dir, e.name)) : /(?<!\.test)\.tsx$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('server-paged lists', () => {
  it('recognises a pager fed by the server', () => {
    expect(SERVER_TOTAL.test('pagination={{ total: list.data?.total ?? 0 }}')).toBe(true);
    expect(SERVER_TOTAL.test('<Pagination total={outbox.data?.total ?? 0} />')).toBe(true);
    expect(SERVER_TOTAL.test('pagination={{ pageSize: 10 }}')).toBe(false);
  });

  it('each keep their page in range', () => {
    const paged = screens().filter((f) => SERVER_TOTAL.test(readFileSync(f, 'utf8')));
    expect(paged.length).toBeGreaterThan(8);
    const unguarded = paged.filter((f) => !KEEPS_RANGE.test(readFileSync(f, 'utf8'))).map((f) => relative(SRC, f));
    expect(unguarded).toEqual([]);
  });
});
