import type { ReactNode } from 'react';
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ShareView } from '../api/shares';
import { RemainingDays } from './RemainingDays';

const PAGE_TITLES = { case: 'visit.titleCase', order: 'visit.titleOrder', report: 'visit.titleReport' } as const;

/** Who shared it and for how long: the head of every share page. */
export function SharedHeading({ view, extra }: { view: ShareView; extra?: ReactNode }) {
  const { t } = useTranslation('shares');
  return (
    <div>
      <Typography.Title level={2} style={{ marginBottom: 4 }}>
        {t(PAGE_TITLES[view.resourceType])}
      </Typography.Title>
      <Space wrap>
        <Typography.Text>{t('visit.sharedBy', { organization: view.organizationName })}</Typography.Text>
        <RemainingDays share={view} />
        {extra}
      </Space>
    </div>
  );
}
