import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../../components/PublicPage';
import { forgetPass } from '../api/forgetPass';

export default function ForgetPassAccountPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const onFinish = async ({ account }: { account: string }) => {
    setBusy(true);
    try {
      const { email } = await forgetPass(account.trim());
      void navigate(`/forget-pass-email-send?account=${encodeURIComponent(account.trim())}`, { state: { email } });
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <PublicPage title={t('forgot.title')}>
      <p>{t('forgot.text')}</p>
      <Form layout="vertical" onFinish={(v: { account: string }) => void onFinish(v)} requiredMark={false}>
        <Form.Item
          name="account"
          label={t('login.account')}
          rules={[{ required: true, whitespace: true, message: t('common:required') }]}
        >
          <Input data-testid="forgot-account" autoComplete="username" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="forgot-submit">
          {t('forgot.submit')}
        </Button>
      </Form>
      <div className="public-links">
        <Link to="/login">{t('common:backToLogin')}</Link>
      </div>
    </PublicPage>
  );
}
