import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { OrganizationList } from '../components/OrganizationList';
import OrganizationReviewPage from './OrganizationReviewPage';

/** Account → Organizations (super administrator): every organization, and the laboratory registrations to review. */
export default function OrganizationsPage() {
  const { t } = useTranslation('organizations');
  return (
    <Card title={t('title')}>
      <Tabs
        destroyOnHidden
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
