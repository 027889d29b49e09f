import { Alert, List, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { signInDisputesQuery } from '../api/signInDisputes';

/**
 * For the super administrator: sign-in identifiers that match more than one user. Sign-in refuses them until one of
 * the users changes theirs; editing one of the users here resolves it. Nothing shows while there are none.
 */
export function SignInDisputes() {
  const { t } = useTranslation('users');
  const disputes = useQuery(signInDisputesQuery());
  const list = disputes.data?.list ?? [];
  if (!list.length) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="sign-in-disputes"
      title={t('disputes.title', { count: list.length })}
      description={
        <>
          <Typography.Paragraph>{t('disputes.hint')}</Typography.Paragraph>
          <List
            size="small"
            dataSource={list}
            renderItem={(d) => (
              <List.Item>
                <Typography.Text code>{d.identifier}</Typography.Text> {t(`disputes.kind.${d.kind}`)}:{' '}
                {d.users
                  .map((u) =>
                    t('disputes.user', {
                      name: u.displayName || u.account,
                      account: u.account,
                      organization: u.organizationName,
                    }),
                  )
                  .join('; ')}
              </List.Item>
            )}
          />
        </>
      }
    />
  );
}
