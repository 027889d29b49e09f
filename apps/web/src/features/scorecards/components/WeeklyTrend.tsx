import { theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ScorecardWeek } from '@portal/contracts';
import { formatDate } from '../../../lib/dates';
import { useLocale } from '../../../lib/i18n';
import { formatRate, rateSegments } from '../lib/format';

const BOX = { width: 480, height: 160, left: 36, right: 8, top: 8, bottom: 22 };

/**
 * On-time and remake rates per week as two lines (inline SVG, no chart library); weeks without shipments leave a gap.
 * The SVG scales to its container; each week's figures are in its title and in the summary read out.
 */
export function WeeklyTrend({ weeks }: { weeks: readonly ScorecardWeek[] }) {
  const { t } = useTranslation('scorecards');
  const { lang } = useLocale();
  const { token } = theme.useToken();
  const series = [
    { key: 'onTime', color: token.colorSuccess, rates: weeks.map((w) => w.onTimeRate) },
    { key: 'remakes', color: token.colorError, rates: weeks.map((w) => w.remakeRate) },
  ] as const;
  const plotW = BOX.width - BOX.left - BOX.right;
  const xOf = (i: number) => BOX.left + (weeks.length <= 1 ? plotW / 2 : (i * plotW) / (weeks.length - 1));
  const yOf = (r: number) => BOX.top + (1 - r) * (BOX.height - BOX.top - BOX.bottom);
  const weekText = (w: ScorecardWeek) =>
    t('trend.week', {
      date: formatDate(w.weekStart),
      onTime: formatRate(w.onTimeRate, lang),
      remakes: formatRate(w.remakeRate, lang),
      shipped: w.shipped,
    });
  return (
    <figure style={{ margin: 0 }} data-testid="scorecard-trend">
      <svg
        viewBox={`0 0 ${BOX.width} ${BOX.height}`}
        width="100%"
        role="img"
        aria-label={`${t('trend.title')}: ${weeks.map(weekText).join('; ')}`}
        style={{ display: 'block', maxHeight: 200 }}
      >
        {[0, 0.5, 1].map((r) => (
          <g key={r}>
            <line
              x1={BOX.left}
              x2={BOX.width - BOX.right}
              y1={yOf(r)}
              y2={yOf(r)}
              stroke={token.colorBorderSecondary}
            />
            <text x={BOX.left - 4} y={yOf(r) + 4} textAnchor="end" fontSize={10} fill={token.colorTextSecondary}>
              {formatRate(r, lang)}
            </text>
          </g>
        ))}
        {weeks.map((w, i) =>
          i % 3 === weeks.length % 3 || i === weeks.length - 1 ? (
            <text
              key={w.weekStart}
              x={xOf(i)}
              y={BOX.height - 6}
              textAnchor="middle"
              fontSize={10}
              fill={token.colorTextSecondary}
            >
              {new Intl.DateTimeFormat(lang, { month: 'numeric', day: 'numeric', timeZone: 'UTC' }).format(
                new Date(`${w.weekStart}T00:00:00Z`),
              )}
            </text>
          ) : null,
        )}
        {series.map((s) =>
          rateSegments(s.rates, BOX).map((seg, k) => (
            <g key={`${s.key}-${k}`}>
              <polyline
                points={seg.map((p) => `${p.x},${p.y}`).join(' ')}
                fill="none"
                stroke={s.color}
                strokeWidth={2}
              />
              {seg.map((p) => (
                <circle key={`${p.x}`} cx={p.x} cy={p.y} r={3} fill={s.color} />
              ))}
            </g>
          )),
        )}
        {weeks.map((w, i) => (
          <rect
            key={w.weekStart}
            x={xOf(i) - plotW / Math.max(1, weeks.length - 1) / 2}
            y={BOX.top}
            width={plotW / Math.max(1, weeks.length - 1)}
            height={BOX.height - BOX.top - BOX.bottom}
            fill="transparent"
          >
            <title>{weekText(w)}</title>
          </rect>
        ))}
      </svg>
      <figcaption>
        {series.map((s) => (
          <Typography.Text key={s.key} type="secondary" style={{ marginInlineEnd: 16, fontSize: 12 }}>
            <span
              aria-hidden
              style={{
                display: 'inline-block',
                width: 10,
                height: 10,
                borderRadius: 5,
                background: s.color,
                marginInlineEnd: 6,
              }}
            />
            {t(`trend.${s.key}`)}
          </Typography.Text>
        ))}
      </figcaption>
    </figure>
  );
}
