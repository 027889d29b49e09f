import { describe, expect, it } from 'vitest';
import { fontRuns } from './pdf-render.js';

describe('fontRuns', () => {
  it("writes each character with the report language's font first, and falls back to one that has it", () => {
    expect(fontRuns('Καλή υγεία, Aiko 愛子', 'el')).toEqual([
      { script: 'latin', text: 'Καλή υγεία, Aiko ' },
      { script: 'jp', text: '愛子' },
    ]);
    // In a Japanese report the Latin letters the Japanese font has stay in it.
    expect(fontRuns('歯 16 · 審美', 'ja')).toEqual([{ script: 'jp', text: '歯 16 · 審美' }]);
    expect(fontRuns('口腔健康報告', 'zh-TW')).toEqual([{ script: 'tc', text: '口腔健康報告' }]);
  });
});
