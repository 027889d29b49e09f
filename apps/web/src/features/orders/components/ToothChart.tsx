import type { KeyboardEvent } from 'react';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { toothLabel, type ToothNumberingSystem } from '@portal/contracts';
import { LOWER_TEETH, UPPER_TEETH, toothKind } from '../lib/teeth';

const WIDTH = 420;
const HEIGHT = 410;
const CX = WIDTH / 2;
const RX = 165;
const RY = 150;
/** The two arches' centres: the upper arch opens downwards, the lower one upwards, with room between them. */
const UPPER_CY = 180;
const LOWER_CY = 230;
const RADIUS = { molar: 16, premolar: 14, canine: 13, incisor: 12 } as const;

/**
 * Where each tooth of an arch sits (index 0–15, patient's right to left) on a half ellipse: spaced by arc length
 * so that wide molars and narrow incisors sit evenly, which equal angles would not do.
 */
const ARCH: readonly { x: number; dy: number }[] = (() => {
  const steps = 720;
  const points = Array.from({ length: steps + 1 }, (_, i) => {
    const angle = Math.PI - (i * Math.PI) / steps;
    return { x: CX + RX * Math.cos(angle), dy: RY * Math.sin(angle) };
  });
  const along = [0];
  for (let i = 1; i <= steps; i++)
    along.push(along[i - 1]! + Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.dy - points[i - 1]!.dy));
  const radii = UPPER_TEETH.map((fdi) => RADIUS[toothKind(fdi)]);
  const gap = (along[steps]! - radii.reduce((a, r) => a + 2 * r, 0)) / radii.length;
  let s = gap / 2;
  return radii.map((r) => {
    const at = s + r;
    s += 2 * r + gap;
    const i = Math.min(
      steps,
      along.findIndex((d) => d >= at),
    );
    return points[i]!;
  });
})();

function position(index: number, upper: boolean): { x: number; y: number } {
  const p = ARCH[index]!;
  return { x: p.x, y: upper ? UPPER_CY - p.dy : LOWER_CY + p.dy };
}

/**
 * The 32 adult teeth, upper and lower arch, as seen facing the patient. Numbers are FDI in the data and shown
 * in the user's numbering system. With `onToggle` each tooth is a checkbox (click, Enter or Space).
 */
export function ToothChart({
  selected,
  system,
  onToggle,
}: {
  selected: readonly number[];
  system: ToothNumberingSystem;
  onToggle?: (fdi: number) => void;
}) {
  const { t } = useTranslation('orders');
  const { token } = theme.useToken();
  const interactive = Boolean(onToggle);

  const tooth = (fdi: number, index: number, upper: boolean) => {
    const { x, y } = position(index, upper);
    const on = selected.includes(fdi);
    const label = toothLabel(fdi, system);
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onToggle?.(fdi);
      }
    };
    return (
      <g
        key={fdi}
        data-testid={`tooth-${fdi}`}
        data-selected={on ? 'true' : 'false'}
        aria-label={t('chart.tooth', { label })}
        {...(interactive
          ? {
              role: 'checkbox',
              'aria-checked': on,
              tabIndex: 0,
              onClick: () => onToggle?.(fdi),
              onKeyDown,
              style: { cursor: 'pointer', outline: 'none' },
            }
          : { role: 'img' })}
        className="tooth-chart-tooth"
      >
        <circle
          cx={x}
          cy={y}
          r={RADIUS[toothKind(fdi)]}
          fill={on ? token.colorPrimary : token.colorBgContainer}
          stroke={on ? token.colorPrimaryActive : token.colorBorder}
          strokeWidth={1.5}
        />
        <text
          x={x}
          y={y}
          textAnchor="middle"
          dominantBaseline="central"
          fontSize={12}
          fill={on ? token.colorTextLightSolid : token.colorText}
          pointerEvents="none"
        >
          {label}
        </text>
      </g>
    );
  };

  const caption = { fontSize: 12, fill: token.colorTextSecondary, textAnchor: 'middle' as const };
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="group"
      aria-label={t('chart.title')}
      data-testid="tooth-chart"
      data-system={system}
      style={{ width: '100%', maxWidth: WIDTH, display: 'block', margin: '0 auto' }}
    >
      <style>{'.tooth-chart-tooth:focus-visible circle { stroke-width: 3px; }'}</style>
      <text x={CX} y={UPPER_CY - 50} {...caption}>
        {t('chart.upper')}
      </text>
      <text x={CX} y={LOWER_CY + 58} {...caption}>
        {t('chart.lower')}
      </text>
      {/* Facing the patient: their right side is on the viewer's left. */}
      <text x={12} y={(UPPER_CY + LOWER_CY) / 2} {...caption} dominantBaseline="central">
        {t('chart.right')}
      </text>
      <text x={WIDTH - 12} y={(UPPER_CY + LOWER_CY) / 2} {...caption} dominantBaseline="central">
        {t('chart.left')}
      </text>
      {UPPER_TEETH.map((fdi, i) => tooth(fdi, i, true))}
      {LOWER_TEETH.map((fdi, i) => tooth(fdi, i, false))}
    </svg>
  );
}
