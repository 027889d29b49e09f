import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The gate for "whose day is it": cutting an instant's ISO text to its first ten characters gives the day in UTC,
 * which is nobody's day in particular. A day shown to or counted for someone comes from their timezone
 * (`dateInTimeZone`, `localToday`, `sqlDayStart`). The places that mean UTC on purpose are listed here with why; a
 * new one fails this test until it is moved to the right timezone or listed.
 */
const ROOT = join(import.meta.dirname, '../../..');
const SOURCES = ['apps/server/src', 'apps/web/src', 'packages/contracts/src', 'packages/mesh/src'];
const UTC_DAY = /toISOString\(\)\s*\.\s*(slice\(0,\s*10\)|substring\(0,\s*10\)|split\(['"]T['"]\))/g;

const UTC_ON_PURPOSE: Record<string, string> = {
  'apps/server/src/modules/devices/catalog.ts':
    'a spreadsheet date cell: exceljs gives the calendar day typed in the cell as UTC midnight',
  'apps/server/src/modules/scorecards/scorecards.service.ts':
    'lab scorecards count UTC days (product-decisions, "Remakes and lab scorecards")',
  'apps/server/src/modules/scorecards/scorecard-figures.ts':
    'calendar arithmetic on days held as UTC midnights, no instant involved',
  'packages/contracts/src/workingDays.ts': 'calendar arithmetic on days held as UTC midnights, no instant involved',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

describe('days', () => {
  it('are cut from UTC instants only where UTC is meant, and said why', () => {
    const found = new Set<string>();
    for (const file of SOURCES.flatMap((s) => sources(join(ROOT, s)))) {
      if (UTC_DAY.test(readFileSync(file, 'utf8'))) found.add(relative(ROOT, file));
      UTC_DAY.lastIndex = 0;
    }
    const unexplained = [...found].filter((f) => !UTC_ON_PURPOSE[f]);
    expect(unexplained, 'a UTC day where a person’s day is meant: use their timezone, or say why here').toEqual([]);
    // A listed place that no longer cuts UTC days leaves the list.
    expect(Object.keys(UTC_ON_PURPOSE).filter((f) => !found.has(f))).toEqual([]);
  });
});
