import { DIAGNOSIS_COLORS, toothLabel, type ReportFinding, type ToothNumberingSystem } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { useTheme } from '../../../lib/theme';

const UPPER = [18, 17, 16, 15, 14, 13, 12, 11, 21, 22, 23, 24, 25, 26, 27, 28];
const LOWER = [48, 47, 46, 45, 44, 43, 42, 41, 31, 32, 33, 34, 35, 36, 37, 38];

/**
 * The 32 adult teeth as seen facing the patient, each a button: a tooth with findings wears its first category's
 * colour (the theme's light or dark one). FDI in the data, shown in the user's numbering system.
 */
export function ToothFindingsChart({
  findings,
  system,
  onPick,
}: {
  findings: readonly ReportFinding[];
  system: ToothNumberingSystem;
  onPick: (fdi: number) => void;
}) {
  const { t } = useTranslation('reports');
  const { effective } = useTheme();
  const row = (teeth: number[]) => (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(16, minmax(0, 1fr))', gap: 3 }}>
      {teeth.map((fdi) => {
        const found = findings.filter((f) => f.tooth === fdi);
        const color = found[0] ? DIAGNOSIS_COLORS[found[0].category][effective === 'dark' ? 'dark' : 'light'] : null;
        const label = toothLabel(fdi, system);
        return (
          <button
            key={fdi}
            type="button"
            data-testid={`report-tooth-${fdi}`}
            aria-pressed={found.length > 0}
            aria-label={t('findings.tooth', { tooth: label })}
            onClick={() => onPick(fdi)}
            style={{
              minWidth: 0,
              padding: '6px 0',
              fontSize: 12,
              borderRadius: 6,
              cursor: 'pointer',
              border: `2px solid ${color ?? 'rgba(128,128,128,0.45)'}`,
              background: color ? `${color}33` : 'transparent',
              color: 'inherit',
              fontWeight: found.length ? 700 : 400,
            }}
          >
            {label}
          </button>
        );
      })}
    </div>
  );
  return (
    <div role="group" aria-label={t('findings.chart')} data-testid="report-tooth-chart" data-system={system}>
      {row(UPPER)}
      <div style={{ height: 8 }} />
      {row(LOWER)}
    </div>
  );
}
