import { useState } from 'react';
import { Alert, Col, Empty, Row, Segmented, Space, Spin, Statistic, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SCORECARD_WINDOWS, type Scorecard } from '@portal/contracts';
import { messageOf } from '../../../lib/errors';
import { errorText } from '../../../lib/http';
import { useLocale } from '../../../lib/i18n';
import { labScorecardQuery } from '../api/scorecard';
import { formatDays, formatRate } from '../lib/format';

type WindowDays = (typeof SCORECARD_WINDOWS)[number];

/**
 * A laboratory's scorecard in a small space: on-time rate, remake rate (with the reasons that occurred) and median
 * turnaround over 30, 90 or 365 days. A clinic names its partnership; a laboratory reads its own.
 */
export function LabScorecard({ partnerCode }: { partnerCode?: string }) {
  const { t } = useTranslation('scorecards');
  const card = useQuery(labScorecardQuery(partnerCode));
  if (card.isPending) return <Spin size="small" />;
  if (card.error) return <Alert type="error" showIcon title={messageOf(card.error, errorText)} />;
  return <ScorecardFigures card={card.data} label={t('title')} />;
}

export function ScorecardFigures({ card, label }: { card: Scorecard; label: string }) {
  const { t } = useTranslation(['scorecards', 'orders']);
  const { lang } = useLocale();
  const [days, setDays] = useState<WindowDays>(90);
  const w = card.windows.find((x) => x.days === days) ?? card.windows[0]!;
  return (
    <section aria-label={label} data-testid="lab-scorecard" data-lab={card.lab.code}>
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Segmented<WindowDays>
          size="small"
          value={days}
          onChange={setDays}
          options={SCORECARD_WINDOWS.map((d) => ({ value: d, label: t('window', { days: d }) }))}
          data-testid="scorecard-window"
        />
        {w.shipped === 0 && w.remakes === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noShipments')} />
        ) : (
          <>
            <Row gutter={[16, 12]}>
              <Col xs={12} sm={8}>
                <Statistic title={t('onTime')} value={formatRate(w.onTimeRate, lang)} data-testid="scorecard-on-time" />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {w.dueCounted ? t('onTimeOf', { onTime: w.onTime, total: w.dueCounted }) : t('noDueDates')}
                </Typography.Text>
              </Col>
              <Col xs={12} sm={8}>
                <Statistic
                  title={t('remakeRate')}
                  value={formatRate(w.remakeRate, lang)}
                  data-testid="scorecard-remake-rate"
                />
                <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="scorecard-remakes">
                  {t('remakesOf', { remakes: w.remakes, shipped: w.shipped })}
                </Typography.Text>
              </Col>
              <Col xs={24} sm={8}>
                <Statistic
                  title={t('turnaround')}
                  value={formatDays(w.medianTurnaroundDays, lang)}
                  data-testid="scorecard-turnaround"
                />
              </Col>
            </Row>
            {w.remakes ? (
              <Space wrap size={4} data-testid="scorecard-reasons">
                {w.remakesByReason
                  .filter((r) => r.count > 0)
                  .map((r) => (
                    <Tag key={r.reason} data-reason={r.reason}>
                      {t('orders:remakeReason.' + r.reason)}: {r.count}
                    </Tag>
                  ))}
              </Space>
            ) : null}
          </>
        )}
      </Space>
    </section>
  );
}
