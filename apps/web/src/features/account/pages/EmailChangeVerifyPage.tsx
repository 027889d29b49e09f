import { Button, Result, Spin } from 'antd';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '@portal/contracts';
import { PublicPage } from '../../../components/PublicPage';
import { ApiError } from '../../../lib/http';
import { confirmEmailChange } from '../api/account';
import { accountKeys } from '../api/keys';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['account'];

/** /email-change-verify/{id}: the new address of an account is confirmed from the link mailed to it. */
export default function EmailChangeVerifyPage() {
  const { t } = useTranslation('account');
  const { id = '' } = useParams();
  const confirm = useQuery({
    queryKey: accountKeys.emailChangeConfirm(id),
    queryFn: () => confirmEmailChange(id),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const home = (
    <Link to="/">
      <Button type="primary">{t('emailVerify.continue')}</Button>
    </Link>
  );

  let body;
  if (confirm.isPending) body = <Spin />;
  else if (confirm.isError) {
    const code = confirm.error instanceof ApiError ? confirm.error.code : 0;
    const title =
      code === ERRORS.LINK_EXPIRED.code
        ? t('emailVerify.expired')
        : code === ERRORS.EMAIL_TAKEN.code
          ? t('emailVerify.taken')
          : t('emailVerify.invalid');
    body = <Result status="warning" title={<span data-testid="email-change-result">{title}</span>} extra={home} />;
  } else {
    body = (
      <Result
        status="success"
        title={<span data-testid="email-change-result">{t('emailVerify.done')}</span>}
        subTitle={t('emailVerify.doneText', { email: confirm.data.email })}
        extra={home}
      />
    );
  }
  return <PublicPage title={t('emailVerify.title')}>{body}</PublicPage>;
}
