import { Alert, Card, Space, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../lib/errors';
import { errorText } from '../../../lib/http';
import { labScorecardQuery } from '../api/scorecard';
import { ScorecardFigures } from './LabScorecard';
import { WeeklyTrend } from './WeeklyTrend';

/** The laboratory's own scorecard on its dashboard, with the weekly trend of its rates. */
export function OwnScorecard() {
  const { t } = useTranslation('scorecards');
  const card = useQuery(labScorecardQuery());
  return (
    <Card title={t('ownTitle')} size="small" data-testid="own-scorecard">
      {card.isPending ? <Spin size="small" /> : null}
      {card.error ? <Alert type="error" showIcon title={messageOf(card.error, errorText)} /> : null}
      {card.data ? (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <ScorecardFigures card={card.data} label={t('ownTitle')} />
          <div>
            <Typography.Text strong>{t('trend.title')}</Typography.Text>
            <WeeklyTrend weeks={card.data.weeks} />
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('definition')}
          </Typography.Text>
        </Space>
      ) : null}
    </Card>
  );
}
