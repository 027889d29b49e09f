import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { toothLabel, type ToothNumberingSystem, type ToothStage } from '@portal/contracts';
import type { ToothItem } from '../api/types';
import { bridgesOf, LOWER_TEETH, toothKind, UPPER_TEETH } from '../lib/teeth';

const WIDTH = 330;
const HEIGHT = 420;
const CX = WIDTH / 2;

/**
 * Each tooth's crown seen from the biting side, in millimetres: width along the arch and depth across it
 * (typical adult sizes, positions 1–8 from the midline). The chart draws them to scale, so molars read as molars.
 */
const SIZE_MM: Record<'upper' | 'lower', readonly { w: number; d: number }[]> = {
  upper: [
    { w: 8.5, d: 7 },
    { w: 6.5, d: 6 },
    { w: 7.5, d: 8 },
    { w: 7, d: 9 },
    { w: 6.5, d: 9 },
    { w: 10, d: 11 },
    { w: 9, d: 11 },
    { w: 8.5, d: 10 },
  ],
  lower: [
    { w: 5.4, d: 6 },
    { w: 5.9, d: 6.2 },
    { w: 7, d: 7.5 },
    { w: 7, d: 7.5 },
    { w: 7, d: 8 },
    { w: 11, d: 10.5 },
    { w: 10.5, d: 10 },
    { w: 10, d: 9.5 },
  ],
};

interface Placed {
  fdi: number;
  x: number;
  y: number;
  /** Rotation of the crown (degrees), so that it sits across the arch. */
  angle: number;
  w: number;
  d: number;
  /** Where the number is written: inside the arch, beside the crown. */
  labelX: number;
  labelY: number;
}

/** The laboratory's stage of a tooth: a dot beside its number on the chart, the hue of its tag in the table. */
export const STAGE_COLOURS: Record<ToothStage, string> = {
  design: '#722ed1',
  milling: '#d46b08',
  finishing: '#08979c',
  done: '#389e0d',
};

/**
 * The crowns of one arch placed on a half ellipse (patient's right on the viewer's left), spaced by arc length
 * in proportion to their real widths. The upper arch opens downwards, the lower one upwards.
 */
function placeArch(teeth: readonly number[], upper: boolean): Placed[] {
  const rx = upper ? 128 : 118;
  const ry = upper ? 140 : 128;
  const cy = upper ? 180 : 240;
  const sizes = teeth.map((fdi) => SIZE_MM[upper ? 'upper' : 'lower'][(fdi % 10) - 1]!);
  const steps = 720;
  const points = Array.from({ length: steps + 1 }, (_, i) => {
    const a = Math.PI - (i * Math.PI) / steps;
    return { x: CX + rx * Math.cos(a), y: upper ? cy - ry * Math.sin(a) : cy + ry * Math.sin(a) };
  });
  const along = [0];
  for (let i = 1; i <= steps; i++)
    along.push(along[i - 1]! + Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.y - points[i - 1]!.y));
  const total = along[steps]!;
  const widthMm = sizes.reduce((s, t) => s + t.w, 0);
  const scale = (total * 0.94) / widthMm;
  const gap = (total - widthMm * scale) / sizes.length;
  let s = gap / 2;
  return sizes.map((size, k) => {
    const at = s + (size.w * scale) / 2;
    s += size.w * scale + gap;
    const i = Math.max(
      1,
      Math.min(
        steps - 1,
        along.findIndex((d) => d >= at),
      ),
    );
    const p = points[i]!;
    const tx = points[i + 1]!.x - points[i - 1]!.x;
    const ty = points[i + 1]!.y - points[i - 1]!.y;
    const angle = (Math.atan2(ty, tx) * 180) / Math.PI;
    const len = Math.hypot(tx, ty);
    // Towards the inside of the arch: down for the upper arch's front teeth, up for the lower's.
    const inward = upper ? { x: -ty / len, y: tx / len } : { x: ty / len, y: -tx / len };
    const d = size.d * scale;
    return {
      fdi: teeth[k]!,
      x: p.x,
      y: p.y,
      angle,
      w: size.w * scale,
      d,
      labelX: p.x + inward.x * (d / 2 + 9),
      labelY: p.y + inward.y * (d / 2 + 9),
    };
  });
}

const PLACED: readonly Placed[] = [...placeArch(UPPER_TEETH, true), ...placeArch(LOWER_TEETH, false)];
const isUpper = (fdi: number) => fdi < 30;

/**
 * A crown's outline seen from the biting side, centred on 0,0 with its outer (cheek or lip) side at negative y:
 * incisors a shovel, canines a point, premolars an oval with one fissure, molars a square with crossed fissures.
 */
function crownPath(fdi: number, w: number, d: number): { outline: string; fissures: string } {
  const hw = w / 2;
  const hd = d / 2;
  switch (toothKind(fdi)) {
    case 'incisor':
      return {
        outline: `M ${-hw} ${-hd * 0.35} Q 0 ${-hd * 1.25} ${hw} ${-hd * 0.35} Q ${hw * 0.7} ${hd} 0 ${hd} Q ${-hw * 0.7} ${hd} ${-hw} ${-hd * 0.35} Z`,
        fissures: `M ${-hw * 0.55} ${-hd * 0.3} Q 0 ${-hd * 0.75} ${hw * 0.55} ${-hd * 0.3}`,
      };
    case 'canine':
      return {
        outline: `M 0 ${-hd} Q ${hw} ${-hd * 0.7} ${hw} 0 Q ${hw * 0.8} ${hd} 0 ${hd} Q ${-hw * 0.8} ${hd} ${-hw} 0 Q ${-hw} ${-hd * 0.7} 0 ${-hd} Z`,
        fissures: `M 0 ${-hd * 0.55} L 0 ${hd * 0.45}`,
      };
    case 'premolar': {
      const r = Math.min(hw, hd) * 0.85;
      return {
        outline: roundedRect(hw, hd, r),
        fissures: `M ${-hw * 0.5} 0 L ${hw * 0.5} 0`,
      };
    }
    default: {
      const r = Math.min(hw, hd) * 0.45;
      return {
        outline: roundedRect(hw, hd, r),
        fissures: `M ${-hw * 0.55} ${-hd * 0.05} L ${hw * 0.55} ${hd * 0.05} M ${-hw * 0.1} ${-hd * 0.55} L ${hw * 0.1} ${hd * 0.55}`,
      };
    }
  }
}

function roundedRect(hw: number, hd: number, r: number): string {
  return `M ${-hw + r} ${-hd} H ${hw - r} Q ${hw} ${-hd} ${hw} ${-hd + r} V ${hd - r} Q ${hw} ${hd} ${hw - r} ${hd} H ${-hw + r} Q ${-hw} ${hd} ${-hw} ${hd - r} V ${-hd + r} Q ${-hw} ${-hd} ${-hw + r} ${-hd} Z`;
}

type ToothState = 'none' | 'single' | 'abutment' | 'pontic' | 'missing';

function stateOf(item: ToothItem | undefined): ToothState {
  if (!item) return 'none';
  if (item.unit === 'pontic' && item.bridgeGroup !== undefined) return 'pontic';
  if (item.unit === 'abutment' && item.bridgeGroup !== undefined) return 'abutment';
  if (item.missing && !item.implant) return 'missing';
  return 'single';
}

/**
 * The 32 adult teeth as an anatomical chart, upper and lower arch facing the patient, numbered in the user's
 * system (FDI in the data). Chosen teeth are filled; bridges are drawn as joined units with abutments filled and
 * pontics hollow; missing teeth dashed; implants carry a screw. With `onSelect` every tooth is a button: a click or
 * Enter/Space chooses it, Shift (or the span switch, for touch screens) chooses everything from the last tooth
 * chosen; the arrow keys move along the arches.
 */
export function ToothChart({
  items,
  system,
  onSelect,
  spanMode = false,
}: {
  items: readonly ToothItem[];
  system: ToothNumberingSystem;
  onSelect?: (fdi: number, span: boolean, anchor: number | null) => void;
  /** Chooses spans without Shift (the touch screen's way). */
  spanMode?: boolean;
}) {
  const { t } = useTranslation(['teeth', 'numbering']);
  const { token } = theme.useToken();
  const [anchor, setAnchor] = useState<number | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const interactive = Boolean(onSelect);
  const byNumber = new Map(items.map((i) => [i.number, i]));
  const bridges = bridgesOf(items);

  const choose = (fdi: number, shift: boolean) => {
    onSelect?.(fdi, shift || spanMode, anchor);
    setAnchor(fdi);
  };
  const focusTooth = (fdi: number) =>
    svgRef.current?.querySelector<SVGGElement>(`[data-testid="tooth-${fdi}"]`)?.focus();
  const onKeyDown = (fdi: number) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      choose(fdi, e.shiftKey);
      return;
    }
    const order = isUpper(fdi) ? UPPER_TEETH : LOWER_TEETH;
    const at = order.indexOf(fdi);
    const next =
      e.key === 'ArrowRight'
        ? order[at + 1]
        : e.key === 'ArrowLeft'
          ? order[at - 1]
          : e.key === 'ArrowDown' || e.key === 'ArrowUp'
            ? (isUpper(fdi) ? LOWER_TEETH : UPPER_TEETH)[at]
            : undefined;
    if (next !== undefined) {
      e.preventDefault();
      focusTooth(next);
    }
  };

  const colours = (state: ToothState) => {
    switch (state) {
      case 'single':
      case 'abutment':
        return {
          fill: token.colorPrimary,
          stroke: token.colorPrimaryActive,
          line: token.colorTextLightSolid,
          dash: undefined,
        };
      case 'pontic':
        return { fill: token.colorPrimaryBg, stroke: token.colorPrimary, line: token.colorPrimary, dash: '3 2' };
      case 'missing':
        return { fill: 'transparent', stroke: token.colorTextTertiary, line: token.colorTextTertiary, dash: '3 2' };
      default:
        return {
          fill: token.colorBgContainer,
          stroke: token.colorTextQuaternary,
          line: token.colorTextQuaternary,
          dash: undefined,
        };
    }
  };

  const tooth = (p: Placed) => {
    const item = byNumber.get(p.fdi);
    const state = stateOf(item);
    const c = colours(state);
    const label = toothLabel(p.fdi, system);
    const { outline, fissures } = crownPath(p.fdi, p.w, p.d);
    const flip = isUpper(p.fdi) ? '' : ' scale(1 -1)';
    const describe = [
      state === 'none' ? null : t(`state.${state}`),
      item?.implant ? t('state.implant') : null,
      item?.stage ? t(`stage.${item.stage}`) : null,
    ]
      .filter(Boolean)
      .join(', ');
    const common = {
      'data-testid': `tooth-${p.fdi}`,
      'data-selected': state === 'none' ? 'false' : 'true',
      'data-state': state,
      'data-implant': item?.implant ? 'true' : 'false',
      ...(item?.stage ? { 'data-stage': item.stage } : {}),
      className: 'tooth-chart-tooth',
    };
    const drawing = (
      <>
        <g transform={`translate(${p.x} ${p.y}) rotate(${p.angle})${flip}`}>
          <path
            className="tooth-chart-crown"
            d={outline}
            fill={c.fill}
            stroke={c.stroke}
            strokeWidth={1.5}
            strokeDasharray={c.dash}
          />
          <path d={fissures} fill="none" stroke={c.line} strokeOpacity={0.7} strokeWidth={1} strokeLinecap="round" />
          {state === 'missing' ? (
            <path
              d={`M ${-p.w * 0.25} ${-p.d * 0.25} L ${p.w * 0.25} ${p.d * 0.25} M ${p.w * 0.25} ${-p.d * 0.25} L ${-p.w * 0.25} ${p.d * 0.25}`}
              stroke={c.stroke}
              strokeWidth={1.2}
            />
          ) : null}
        </g>
        {item?.implant ? <Screw x={p.x} y={p.y} colour={token.colorWarningText} bg={token.colorWarningBg} /> : null}
        {item?.stage ? (
          <circle
            cx={p.labelX + (p.labelX < CX ? -9 : 9)}
            cy={p.labelY}
            r={3.5}
            fill={STAGE_COLOURS[item.stage]}
            stroke={token.colorBgContainer}
            strokeWidth={1}
          />
        ) : null}
        <text
          x={p.labelX}
          y={p.labelY}
          textAnchor="middle"
          dominantBaseline="central"
          fontSize={10}
          fontWeight={state === 'none' ? 400 : 600}
          fill={state === 'none' ? token.colorTextSecondary : token.colorText}
          pointerEvents="none"
        >
          {label}
        </text>
      </>
    );
    if (!interactive)
      return (
        <g key={p.fdi} {...common} aria-hidden>
          {drawing}
        </g>
      );
    return (
      <g
        key={p.fdi}
        {...common}
        role="button"
        tabIndex={0}
        aria-pressed={state !== 'none'}
        aria-label={t('tooth', { label })}
        {...(describe ? { 'aria-description': describe } : {})}
        onClick={(e: MouseEvent) => choose(p.fdi, e.shiftKey)}
        onKeyDown={onKeyDown(p.fdi)}
        style={{ cursor: 'pointer', outline: 'none' }}
      >
        {/* A wider target than the crown, for fingers. */}
        <circle cx={p.x} cy={p.y} r={Math.max(p.w, p.d) / 2 + 3} fill="transparent" />
        {drawing}
      </g>
    );
  };

  const caption = { fontSize: 12, fill: token.colorTextSecondary, textAnchor: 'middle' as const };
  const summary = items.length
    ? t('summary', { teeth: items.map((i) => toothLabel(i.number, system)).join(', ') })
    : t('summaryNone');
  return (
    <svg
      ref={svgRef}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      {...(interactive ? { role: 'group', 'aria-label': t('title') } : { role: 'img', 'aria-label': summary })}
      data-testid="tooth-chart"
      data-system={system}
      style={{ width: '100%', maxWidth: WIDTH + 30, display: 'block', margin: '0 auto', touchAction: 'manipulation' }}
    >
      <style>
        {`.tooth-chart-tooth:focus-visible .tooth-chart-crown { stroke: ${token.colorPrimaryActive}; stroke-width: 3.5px; }`}
      </style>
      <text x={CX} y={118} {...caption}>
        {t('upper')}
      </text>
      <text x={CX} y={306} {...caption}>
        {t('lower')}
      </text>
      {/* The same tooth reads 16 in FDI and 3 in Universal: the chart says which it shows. */}
      <text x={CX} y={212} {...caption} fontSize={11} dominantBaseline="central" data-testid="tooth-chart-numbering">
        {t('numbering:caption', { system: t(`numbering:name.${system}`) })}
      </text>
      {/* Facing the patient: their right side is on the viewer's left. */}
      <text x={12} y={210} {...caption} dominantBaseline="central">
        {t('right')}
      </text>
      <text x={WIDTH - 12} y={210} {...caption} dominantBaseline="central">
        {t('left')}
      </text>
      {PLACED.map(tooth)}
      {bridges.map((units) => (
        <Connector key={units.join('-')} units={units} colour={token.colorPrimaryActive} />
      ))}
    </svg>
  );
}

/** A bridge's connectors: a bar through the units' centres, joining them as one piece. */
function Connector({ units, colour }: { units: readonly number[]; colour: string }) {
  const points = units.map((fdi) => PLACED.find((p) => p.fdi === fdi)!);
  return (
    <g data-testid={`bridge-${units.join('-')}`} aria-hidden pointerEvents="none">
      <polyline
        points={points.map((p) => `${p.x},${p.y}`).join(' ')}
        fill="none"
        stroke={colour}
        strokeWidth={3}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      {points.map((p) => (
        <circle key={p.fdi} cx={p.x} cy={p.y} r={2.5} fill={colour} />
      ))}
    </g>
  );
}

/** An implant: a fixture's screw drawn over the crown. */
function Screw({ x, y, colour, bg }: { x: number; y: number; colour: string; bg: string }) {
  return (
    <g transform={`translate(${x} ${y})`} aria-hidden pointerEvents="none">
      <rect x={-3.5} y={-6} width={7} height={12} rx={1.5} fill={bg} stroke={colour} strokeWidth={1.2} />
      <path d="M -3.5 -2 L 3.5 -3.5 M -3.5 1.5 L 3.5 0 M -3.5 5 L 3.5 3.5" stroke={colour} strokeWidth={1} />
    </g>
  );
}

/** What the chart's marks mean. */
export function ToothChartLegend({ stages = [] }: { stages?: readonly ToothStage[] }) {
  const { t } = useTranslation('teeth');
  const { token } = theme.useToken();
  const swatch = (fill: string, stroke: string, dash?: string) => (
    <svg width={14} height={14} aria-hidden style={{ verticalAlign: 'middle', marginInlineEnd: 4 }}>
      <rect
        x={1.5}
        y={1.5}
        width={11}
        height={11}
        rx={3}
        fill={fill}
        stroke={stroke}
        strokeWidth={1.5}
        strokeDasharray={dash}
      />
    </svg>
  );
  const entries = [
    { key: 'single', mark: swatch(token.colorPrimary, token.colorPrimaryActive) },
    { key: 'pontic', mark: swatch(token.colorPrimaryBg, token.colorPrimary, '3 2') },
    { key: 'missing', mark: swatch('transparent', token.colorTextTertiary, '3 2') },
    {
      key: 'implant',
      mark: (
        <svg width={14} height={14} aria-hidden style={{ verticalAlign: 'middle', marginInlineEnd: 4 }}>
          <Screw x={7} y={7} colour={token.colorWarningText} bg={token.colorWarningBg} />
        </svg>
      ),
    },
  ];
  return (
    <ul
      data-testid="tooth-chart-legend"
      style={{
        listStyle: 'none',
        display: 'flex',
        flexWrap: 'wrap',
        justifyContent: 'center',
        gap: '4px 12px',
        padding: 0,
        margin: '4px 0 0',
        fontSize: 12,
        color: token.colorTextSecondary,
      }}
    >
      {entries.map((e) => (
        <li key={e.key}>
          {e.mark}
          {t(`legend.${e.key}`)}
        </li>
      ))}
      {stages.map((s) => (
        <li key={s} data-testid={`tooth-chart-legend-${s}`}>
          <svg width={14} height={14} aria-hidden style={{ verticalAlign: 'middle', marginInlineEnd: 4 }}>
            <circle cx={7} cy={7} r={4} fill={STAGE_COLOURS[s]} />
          </svg>
          {t(`stage.${s}`)}
        </li>
      ))}
    </ul>
  );
}
