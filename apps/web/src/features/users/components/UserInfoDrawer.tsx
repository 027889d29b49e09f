import { Descriptions, Drawer, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ManagedUser } from '@portal/contracts';
import { formatDateTime } from '../../../lib/dates';
import { roleLabel } from '../../../lib/roles';
import { UserStatusTag } from './UserStatusTag';

/** Everything the administrator knows of a user, read-only. */
export function UserInfoDrawer({ user, onClose }: { user: ManagedUser | null; onClose: () => void }) {
  const { t } = useTranslation('users');
  return (
    <Drawer open={user !== null} onClose={onClose} title={user?.displayName} size="large" data-testid="user-info">
      {user ? (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('field.account')}>{user.account}</Descriptions.Item>
          <Descriptions.Item label={t('field.displayName')}>{user.displayName}</Descriptions.Item>
          <Descriptions.Item label={t('field.nickname')}>{user.nickname}</Descriptions.Item>
          <Descriptions.Item label={t('field.email')}>{user.email}</Descriptions.Item>
          <Descriptions.Item label={t('field.phone')}>{user.phone}</Descriptions.Item>
          <Descriptions.Item label={t('field.gender')}>
            {user.gender ? t(`gender.${user.gender}`) : ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.role')}>
            {roleLabel(t, user.role.name)} {user.administrator ? <Tag>{t('administrator')}</Tag> : null}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.organization')}>{user.organization.name}</Descriptions.Item>
          <Descriptions.Item label={t('field.status')}>
            <UserStatusTag status={user.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('field.lastSignIn')}>{formatDateTime(user.lastSignInAt)}</Descriptions.Item>
          <Descriptions.Item label={t('field.createdAt')}>{formatDateTime(user.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={t('field.updatedAt')}>{formatDateTime(user.updatedAt)}</Descriptions.Item>
        </Descriptions>
      ) : null}
    </Drawer>
  );
}
