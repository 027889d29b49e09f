import { Card, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { OrgType } from '@portal/contracts';
import { useSession } from '../../../lib/session';

/** Clinic and laboratory variants; the counts and charts come with the cases and orders work. */
export default function DashboardPage() {
  const { t } = useTranslation('layout');
  const { user } = useSession();
  if (!user) return null;
  const type = user.organization.type;
  const variant = type === OrgType.Clinic ? 'clinic' : type === OrgType.Lab ? 'lab' : 'generic';
  return (
    <Card data-testid={`dashboard-${variant}`}>
      <Typography.Title level={3}>{t('dashboard.welcome', { name: user.displayName })}</Typography.Title>
      <Typography.Paragraph type="secondary">{t(`dashboard.${variant}`)}</Typography.Paragraph>
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('dashboard.organization')}>{user.organization.name}</Descriptions.Item>
        <Descriptions.Item label={t('dashboard.type')}>{t(`orgType.${type}`, { defaultValue: String(type) })}</Descriptions.Item>
        <Descriptions.Item label={t('dashboard.role')}>{user.role.name}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
