import { Result, Spin } from 'antd';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CONTACT_VERIFICATION_VALIDITY_DAYS, ERRORS } from '@portal/contracts';
import { PublicPage } from '../../../components/PublicPage';
import { ApiError } from '../../../lib/http';
import { verifyContact } from '../api/contacts';
import { accountKeys } from '../api/keys';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['account'];

/** /contact-email-verify/{verifyCode}: a contact confirms their address from the mailed link. */
export default function ContactVerifyPage() {
  const { t } = useTranslation('account');
  const { verifyCode = '' } = useParams();
  const verify = useQuery({
    queryKey: accountKeys.contactVerify(verifyCode),
    queryFn: () => verifyContact(verifyCode),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });

  let body;
  if (verify.isPending) body = <Spin />;
  else if (verify.isError) {
    const code = verify.error instanceof ApiError ? verify.error.code : 0;
    const expired = code === ERRORS.LINK_EXPIRED.code;
    body = (
      <Result
        status="warning"
        title={
          <span data-testid="contact-verify-result">
            {expired ? t('contactVerify.expired') : t('contactVerify.invalid')}
          </span>
        }
        subTitle={expired ? t('contactVerify.expiredText', { days: CONTACT_VERIFICATION_VALIDITY_DAYS }) : null}
      />
    );
  } else {
    body = (
      <Result
        status="success"
        title={<span data-testid="contact-verify-result">{t('contactVerify.done')}</span>}
        subTitle={t('contactVerify.doneText', {
          email: verify.data.email,
          organization: verify.data.organizationName,
        })}
      />
    );
  }
  return <PublicPage title={t('contactVerify.title')}>{body}</PublicPage>;
}
