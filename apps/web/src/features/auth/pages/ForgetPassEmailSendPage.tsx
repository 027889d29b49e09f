import { useEffect, useState } from 'react';
import { Button, Result } from 'antd';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../../components/PublicPage';
import { notify } from '../../../lib/notify';
import { forgetPass } from '../api/forgetPass';
import { getChangePassEmail } from '../api/getChangePassEmail';

export default function ForgetPassEmailSendPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const location = useLocation();
  const account = params.get('account') ?? '';
  const [email, setEmail] = useState<string>((location.state as { email?: string } | null)?.email ?? '');
  const [busy, setBusy] = useState(false);

  // After a reload the masked address is asked again.
  useEffect(() => {
    if (!email && account)
      getChangePassEmail(account).then(
        (r) => setEmail(r.email),
        () => undefined,
      );
  }, [account, email]);

  const resend = async () => {
    setBusy(true);
    try {
      const r = await forgetPass(account);
      setEmail(r.email);
      notify.success(t('forgot.resent'));
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicPage title={t('forgot.title')}>
      <Result
        status="success"
        title={t('forgot.sentTitle')}
        subTitle={<span data-testid="forgot-email">{t('forgot.sentText', { email })}</span>}
        extra={[
          <Button
            key="resend"
            onClick={() => void resend()}
            loading={busy}
            disabled={!account}
            data-testid="forgot-resend"
          >
            {t('forgot.resend')}
          </Button>,
          <Link key="login" to="/login">
            <Button type="primary">{t('common:backToLogin')}</Button>
          </Link>,
        ]}
      />
    </PublicPage>
  );
}
