// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import '../../../test/dom-shims';
import { cleanup, mount as render, unmount } from '../../../test/render';
import dayjs from 'dayjs';
import 'dayjs/locale/de';
import { localeStore } from '../../../lib/i18n';
import TrendChart, { chartGeometry, xTickIndexes, yScale, yTicks } from './TrendChart';

afterEach(cleanup);

const days = (counts: number[]) =>
  counts.map((count, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, count }));
const coords = (d: string) => [...d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);

describe('trend chart geometry', () => {
  it('scales whole counts to at most 4 steps of 1, 2 or 5 × 10ⁿ', () => {
    expect(yScale(0)).toEqual({ max: 1, step: 1 });
    expect(yScale(3)).toEqual({ max: 3, step: 1 });
    expect(yScale(7)).toEqual({ max: 8, step: 2 });
    expect(yScale(37)).toEqual({ max: 40, step: 10 });
    expect(yScale(1234)).toEqual({ max: 1500, step: 500 });
    expect(yScale(Number.NaN)).toEqual({ max: 1, step: 1 });
    expect(yTicks({ max: 8, step: 2 })).toEqual([0, 2, 4, 6, 8]);
  });
  it('spreads x ticks evenly, first and last included', () => {
    expect(xTickIndexes(0, 5)).toEqual([]);
    expect(xTickIndexes(1, 5)).toEqual([0]);
    expect(xTickIndexes(30, 4)).toEqual([0, 10, 19, 29]);
    expect(xTickIndexes(3, 7)).toEqual([0, 1, 2]);
  });
  it('maps points into the plot: max at the top, zero on the baseline', () => {
    const box = { width: 140, height: 120, top: 10, right: 10, bottom: 10, left: 30 };
    const g = chartGeometry([0, 5, 10], box);
    expect(g.scale.max).toBe(10);
    expect(g.points).toEqual([
      { x: 30, y: 110 },
      { x: 80, y: 60 },
      { x: 130, y: 10 },
    ]);
    expect(g.line).toBe('M30 110 L80 60 L130 10');
    expect(g.area).toBe('M30 110 L80 60 L130 10 L130 110 L30 110 Z');
  });
});

describe('trend chart', () => {
  it('renders a line path through every point, an accessible label and a title per point', async () => {
    const el = await render(<TrendChart points={days([1, 4, 2, 0, 3])} label="New cases" />);
    const svg = el.querySelector('svg[data-testid="trend-chart"]')!;
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toContain('New cases');
    expect(svg.getAttribute('aria-label')).toContain('10');
    const line = el.querySelector('[data-testid="trend-line"]')!.getAttribute('d')!;
    expect(coords(line)).toHaveLength(5);
    expect(line).not.toMatch(/NaN|Infinity/);
    // The highest point (4) is the top of the plot, zero lies on the baseline.
    const ys = coords(line).map(([, y]) => y!);
    expect(Math.min(...ys)).toBe(ys[1]);
    expect(Math.max(...ys)).toBe(ys[3]);
    const titles = [...el.querySelectorAll('[data-testid="trend-points"] circle title')].map((t) => t.textContent);
    expect(titles).toEqual(['2026-11-01: 1', '2026-11-02: 4', '2026-11-03: 2', '2026-11-04: 0', '2026-11-05: 3']);
    // y axis 0–4 and some dates on the x axis.
    expect([...el.querySelectorAll('[data-testid="trend-y-axis"] text')].map((t) => t.textContent)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(el.querySelectorAll('[data-testid="trend-x-axis"] text').length).toBeGreaterThan(1);
  });

  it("writes the axis dates in the reader's language", async () => {
    const ticks = (el: HTMLElement) =>
      [...el.querySelectorAll('[data-testid="trend-x-axis"] text')].map((t) => t.textContent);
    localeStore.set({ lang: 'de', antd: undefined });
    dayjs.locale('de');
    const de = await render(<TrendChart points={days([1, 2])} label="x" />);
    expect(ticks(de)).toEqual(['1.11.', '2.11.']);
    expect(de.querySelector('svg')?.getAttribute('aria-label')).toBe('x: 3 (01.11.2026 – 02.11.2026)');
    dayjs.locale('en');
    cleanup();
    localeStore.set({ lang: 'en', antd: undefined });
    expect(ticks(await render(<TrendChart points={days([1, 2])} label="x" />))).toEqual(['11/1', '11/2']);
  });

  it('handles an all-zero series: a flat line on the baseline, no NaN', async () => {
    const el = await render(<TrendChart points={days(Array.from({ length: 30 }, () => 0))} label="Orders accepted" />);
    const line = el.querySelector('[data-testid="trend-line"]')!.getAttribute('d')!;
    const area = el.querySelector('[data-testid="trend-area"]')!.getAttribute('d')!;
    expect(line).not.toMatch(/NaN|Infinity/);
    expect(area).not.toMatch(/NaN|Infinity/);
    const pts = coords(line);
    expect(pts).toHaveLength(30);
    expect(new Set(pts.map(([, y]) => y)).size).toBe(1);
    expect([...el.querySelectorAll('[data-testid="trend-y-axis"] text')].map((t) => t.textContent)).toEqual(['0', '1']);
  });

  it('a single point sits in the middle; no points shows the empty text and no line', async () => {
    const one = await render(<TrendChart points={days([2])} label="x" />);
    expect(coords(one.querySelector('[data-testid="trend-line"]')!.getAttribute('d')!)).toHaveLength(1);
    unmount();
    // One day's value ("Total: 1") has no line segment to stroke: a filled dot of its own shows it.
    const day = await render(<TrendChart points={days([1])} label="x" />);
    expect(day.querySelector('svg')?.getAttribute('aria-label')).toContain('x: 1');
    const dot = day.querySelector('[data-testid="trend-single-dot"]')!;
    expect(dot).not.toBeNull();
    expect(Number(dot.getAttribute('r'))).toBeGreaterThanOrEqual(4);
    expect(dot.getAttribute('fill')).toBe(dot.getAttribute('stroke'));
    expect(Number(dot.getAttribute('cy'))).toBeLessThan(
      Number(day.querySelector('[data-testid="trend-x-axis"] line')!.getAttribute('y1')),
    );
    unmount();
    const none = await render(<TrendChart points={[]} label="x" emptyText="No data" />);
    expect(none.querySelector('[data-testid="trend-line"]')).toBeNull();
    expect(none.querySelector('[data-testid="trend-empty"]')?.textContent).toBe('No data');
  });
});
