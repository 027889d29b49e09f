import { Card, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '@portal/contracts';
import { roleLabel } from '../../../lib/roles';

export function OrganizationCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation('ownSpace');
  const org = user.organization;
  return (
    <Card title={t('organization.title')} data-testid="own-organization">
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('organization.name')}>{org.name}</Descriptions.Item>
        <Descriptions.Item label={t('organization.code')}>{org.code}</Descriptions.Item>
        <Descriptions.Item label={t('organization.type')}>
          {t(`layout:orgType.${org.type}`, { defaultValue: String(org.type) })}
        </Descriptions.Item>
        <Descriptions.Item label={t('organization.region')}>{t(`register:region.${org.region}`)}</Descriptions.Item>
        <Descriptions.Item label={t('organization.invitationCode')}>
          <span data-testid="own-invitation-code">{org.invitationCode}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('organization.role')}>{roleLabel(t, user.role.name)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
