import { useState } from 'react';
import { Button, Result } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../../components/PublicPage';
import { useAppConfig } from '../../../lib/appConfig';
import { notify } from '../../../lib/notify';
import { resendConfirm } from '../api/resendConfirm';

export default function RegisterResultPage() {
  const { t } = useTranslation('register');
  const cfg = useAppConfig();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const isLab = params.get('type') === 'lab';
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      await resendConfirm(email);
      notify.success(t('result.resent'));
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <PublicPage width={560}>
      <Result
        status="success"
        title={<span data-testid="register-result">{t('result.title')}</span>}
        subTitle={
          <>
            <p>{t('result.confirmEmail', { email })}</p>
            {isLab ? <p data-testid="register-result-review">{t('result.labReview')}</p> : null}
          </>
        }
        extra={[
          <Button
            key="resend"
            onClick={() => void resend()}
            loading={busy}
            disabled={!email}
            data-testid="register-resend"
          >
            {t('result.resend')}
          </Button>,
          cfg.demoMode ? (
            <Link key="mailbox" to={`/mailbox?email=${encodeURIComponent(email)}`}>
              <Button>{t('result.mailbox')}</Button>
            </Link>
          ) : null,
          <Link key="login" to="/login">
            <Button type="primary">{t('common:backToLogin')}</Button>
          </Link>,
        ]}
      />
    </PublicPage>
  );
}
