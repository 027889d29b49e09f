import { useEffect, useId, useRef, useState } from 'react';
import { theme } from 'antd';
import { formatDate } from '../../../lib/dates';
import { useLocale } from '../../../lib/i18n';

export interface TrendPoint {
  date: string;
  count: number;
}

export interface Box {
  width: number;
  height: number;
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** A y axis for whole counts: the step (1, 2, 5 × 10ⁿ) giving at most 4 intervals, and the top it reaches. An all-zero series gets 0–1. */
export function yScale(maxValue: number): { max: number; step: number } {
  const v = Number.isFinite(maxValue) && maxValue > 0 ? Math.ceil(maxValue) : 0;
  if (v === 0) return { max: 1, step: 1 };
  for (let magnitude = 1; ; magnitude *= 10) {
    for (const m of [1, 2, 5]) {
      const step = m * magnitude;
      if (Math.ceil(v / step) <= 4) return { max: step * Math.ceil(v / step), step };
    }
  }
}

/** The tick values of a y scale, 0 to max. */
export function yTicks(scale: { max: number; step: number }): number[] {
  const out: number[] = [];
  for (let v = 0; v <= scale.max; v += scale.step) out.push(v);
  return out;
}

/** Up to `want` evenly spread indexes of n points, first and last included. */
export function xTickIndexes(n: number, want: number): number[] {
  if (n <= 0) return [];
  if (n === 1) return [0];
  const k = Math.max(2, Math.min(want, n));
  const out = new Set<number>();
  for (let i = 0; i < k; i++) out.add(Math.round((i * (n - 1)) / (k - 1)));
  return [...out];
}

const round = (n: number) => Math.round(n * 10) / 10;

/** Screen positions of the points, the line through them and the area under it. No NaN for empty, single or all-zero series. */
export function chartGeometry(counts: readonly number[], box: Box) {
  const n = counts.length;
  const scale = yScale(Math.max(0, ...counts));
  const plotW = Math.max(1, box.width - box.left - box.right);
  const plotH = Math.max(1, box.height - box.top - box.bottom);
  const baseline = box.top + plotH;
  const x = (i: number) => round(n <= 1 ? box.left + plotW / 2 : box.left + (i * plotW) / (n - 1));
  const y = (v: number) => round(baseline - (Math.max(0, Number.isFinite(v) ? v : 0) / scale.max) * plotH);
  const points = counts.map((v, i) => ({ x: x(i), y: y(v) }));
  const line = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' ');
  const area = n === 0 ? '' : `${line} L${points[n - 1]!.x} ${baseline} L${points[0]!.x} ${baseline} Z`;
  return { points, line, area, scale, baseline, y, plotW, plotH };
}

interface Props {
  points: readonly TrendPoint[];
  /** The accessible name (and the start of the summary read out). */
  label: string;
  /** Shown instead of the line when there are no points. */
  emptyText?: string;
  color?: string;
  height?: number;
  /** "{{date}}: {{count}}" text of a point's tooltip; defaults to that. */
  pointText?: (date: string, count: number) => string;
}

const MARGIN = { top: 12, right: 16, bottom: 28, left: 40 };

/** The container's width, followed as it resizes (a fixed default where there is no layout, e.g. tests). */
function useWidth(fallback: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const w = Math.floor(el.getBoundingClientRect().width);
      if (w > 0) setWidth(w);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * A small inline SVG line and area chart (no chart library): y axis with whole-number ticks, x axis with
 * a few dates, a title on each point and a hover guide with the value. Lazy-loaded by the dashboard.
 */
export default function TrendChart({ points, label, emptyText = '', color, height = 220, pointText }: Props) {
  const { token } = theme.useToken();
  const [ref, width] = useWidth(640);
  const [hover, setHover] = useState<number | null>(null);
  const gradientId = `trend-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const stroke = color ?? token.colorPrimary;
  const box: Box = { width, height, ...MARGIN };
  const geo = chartGeometry(
    points.map((p) => p.count),
    box,
  );
  const text = (p: TrendPoint) => (pointText ? pointText(p.date, p.count) : `${p.date}: ${p.count}`);
  const total = points.reduce((s, p) => s + p.count, 0);
  const summary = points.length
    ? `${label}: ${total} (${formatDate(points[0]!.date)} – ${formatDate(points[points.length - 1]!.date)})`
    : label;
  // Axis dates in the reader's own order and separators (11/22, 22.11., 22/11…); months for long periods.
  const { lang } = useLocale();
  const tickFormat = new Intl.DateTimeFormat(
    lang,
    points.length > 120
      ? { year: 'numeric', month: 'short', timeZone: 'UTC' }
      : { month: 'numeric', day: 'numeric', timeZone: 'UTC' },
  );
  const tick = (date: string) => {
    const d = new Date(`${date}T00:00:00Z`);
    return Number.isNaN(d.getTime()) ? date : tickFormat.format(d);
  };
  const xTicks = xTickIndexes(points.length, Math.max(2, Math.min(7, Math.floor(width / 90))));
  // A lone point has no line to carry it, so its dot is drawn large and filled.
  const single = points.length === 1;
  const dotRadius = single ? 5 : points.length <= 45 ? 3 : points.length <= 120 ? 2 : 0;

  const onMove = (e: React.MouseEvent<SVGSVGElement>) => {
    if (points.length === 0) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const px = ((e.clientX - rect.left) / (rect.width || width)) * width;
    const i = points.length === 1 ? 0 : Math.round(((px - MARGIN.left) / geo.plotW) * (points.length - 1));
    setHover(Math.max(0, Math.min(points.length - 1, i)));
  };

  const hovered = hover !== null ? points[hover] : undefined;
  const hp = hover !== null ? geo.points[hover] : undefined;
  const tipText = hovered ? text(hovered) : '';
  const tipW = Math.max(60, tipText.length * 7 + 16);
  const tipX = hp ? Math.min(Math.max(hp.x - tipW / 2, MARGIN.left), width - MARGIN.right - tipW) : 0;

  return (
    <div ref={ref} style={{ width: '100%' }}>
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={summary}
        data-testid="trend-chart"
        style={{ display: 'block', maxWidth: '100%', overflow: 'visible' }}
        onMouseMove={onMove}
        onMouseLeave={() => setHover(null)}
      >
        <title>{summary}</title>
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor={stroke} stopOpacity={0.28} />
            <stop offset="100%" stopColor={stroke} stopOpacity={0.02} />
          </linearGradient>
        </defs>
        {/* y axis: grid lines and whole-number labels */}
        <g data-testid="trend-y-axis" fontSize={11} fill={token.colorTextSecondary}>
          {yTicks(geo.scale).map((v) => {
            const y = geo.y(v);
            return (
              <g key={v}>
                <line
                  x1={MARGIN.left}
                  x2={width - MARGIN.right}
                  y1={y}
                  y2={y}
                  stroke={token.colorBorderSecondary}
                  strokeDasharray={v === 0 ? undefined : '3 3'}
                />
                <text x={MARGIN.left - 6} y={y} dy="0.32em" textAnchor="end">
                  {v}
                </text>
              </g>
            );
          })}
        </g>
        {/* x axis: a few dates */}
        <g data-testid="trend-x-axis" fontSize={11} fill={token.colorTextSecondary}>
          <line
            x1={MARGIN.left}
            x2={width - MARGIN.right}
            y1={geo.baseline}
            y2={geo.baseline}
            stroke={token.colorBorder}
          />
          {xTicks.map((i) => (
            <text
              key={i}
              x={geo.points[i]!.x}
              y={geo.baseline + 18}
              textAnchor={
                i === 0 && points.length > 1 ? 'start' : i === points.length - 1 && points.length > 1 ? 'end' : 'middle'
              }
            >
              {tick(points[i]!.date)}
            </text>
          ))}
        </g>
        {points.length === 0 ? (
          <text
            x={width / 2}
            y={(MARGIN.top + geo.baseline) / 2}
            textAnchor="middle"
            fontSize={13}
            fill={token.colorTextTertiary}
            data-testid="trend-empty"
          >
            {emptyText}
          </text>
        ) : (
          <>
            <path d={geo.area} fill={`url(#${gradientId})`} stroke="none" data-testid="trend-area" />
            <path
              d={geo.line}
              fill="none"
              stroke={stroke}
              strokeWidth={2}
              strokeLinejoin="round"
              strokeLinecap="round"
              data-testid="trend-line"
            />
            <g data-testid="trend-points">
              {points.map((p, i) => (
                <circle
                  key={p.date + i}
                  cx={geo.points[i]!.x}
                  cy={geo.points[i]!.y}
                  r={dotRadius}
                  fill={single ? stroke : token.colorBgContainer}
                  data-testid={single ? 'trend-single-dot' : undefined}
                  stroke={stroke}
                  strokeWidth={1.5}
                >
                  <title>{text(p)}</title>
                </circle>
              ))}
            </g>
          </>
        )}
        {hovered && hp ? (
          <g pointerEvents="none" data-testid="trend-tooltip">
            <line x1={hp.x} x2={hp.x} y1={MARGIN.top} y2={geo.baseline} stroke={token.colorTextQuaternary} />
            <circle cx={hp.x} cy={hp.y} r={4.5} fill={stroke} stroke={token.colorBgContainer} strokeWidth={2} />
            <rect x={tipX} y={2} width={tipW} height={22} rx={4} fill={token.colorBgSpotlight} opacity={0.9} />
            <text
              x={tipX + tipW / 2}
              y={13}
              dy="0.32em"
              textAnchor="middle"
              fontSize={12}
              fill={token.colorTextLightSolid}
            >
              {tipText}
            </text>
          </g>
        ) : null}
      </svg>
    </div>
  );
}
