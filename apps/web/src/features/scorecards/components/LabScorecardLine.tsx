import { Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../lib/i18n';
import { labScorecardQuery } from '../api/scorecard';
import { formatDays, formatRate } from '../lib/format';

/** The window a clinic weighs a laboratory by while choosing it. */
const CHOOSING_WINDOW_DAYS = 90;

/**
 * A partner laboratory's scorecard in one line, for the moment a clinic chooses it (the send dialog): on-time rate,
 * remake rate and median turnaround over the last 90 days. Nothing while no laboratory is chosen.
 */
export function LabScorecardLine({ partnerCode }: { partnerCode?: string }) {
  const { t } = useTranslation('scorecards');
  const { lang } = useLocale();
  const card = useQuery({ ...labScorecardQuery(partnerCode), enabled: Boolean(partnerCode) });
  if (!partnerCode || !card.data) return null;
  const w = card.data.windows.find((x) => x.days === CHOOSING_WINDOW_DAYS) ?? card.data.windows[0]!;
  const text =
    w.shipped === 0 && w.remakes === 0
      ? t('line.none', { days: w.days })
      : t('line.figures', {
          days: w.days,
          onTime: formatRate(w.onTimeRate, lang),
          remakes: formatRate(w.remakeRate, lang),
          turnaround: formatDays(w.medianTurnaroundDays, lang),
        });
  return (
    <Typography.Text type="secondary" data-testid="send-lab-scorecard">
      {text}
    </Typography.Text>
  );
}
