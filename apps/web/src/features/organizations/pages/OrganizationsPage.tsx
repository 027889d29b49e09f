import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { OrganizationList } from '../components/OrganizationList';
import OrganizationReviewPage from './OrganizationReviewPage';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['organizations'];

/** Account → Organizations (super administrator): every organization, and the laboratory registrations to review. */
export default function OrganizationsPage() {
  const { t } = useTranslation('organizations');
  // The tab is in the address (?tab=review), so a link can open the registrations to review.
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'review' ? 'review' : 'all';
  return (
    <Card title={t('title')}>
      <Tabs
        destroyOnHidden
        activeKey={tab}
        onChange={(key) => setParams(key === 'review' ? { tab: 'review' } : {}, { replace: true })}
        items={[
          {
            key: 'all',
            label: <span data-testid="organizations-tab-all">{t('tab.all')}</span>,
            children: <OrganizationList />,
          },
          {
            key: 'review',
            label: <span data-testid="organizations-tab-review">{t('tab.review')}</span>,
            children: <OrganizationReviewPage />,
          },
        ]}
      />
    </Card>
  );
}
