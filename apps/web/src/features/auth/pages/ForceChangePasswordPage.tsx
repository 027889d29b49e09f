import { useState } from 'react';
import { Button, Form } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../../components/PublicPage';
import { PasswordFields } from '../../../components/PasswordFields';
import { logout, patchUser } from '../../../lib/session';
import { notify } from '../../../lib/notify';
import { forceChangePass } from '../api/forceChangePass';

export default function ForceChangePasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const onFinish = async (v: { password: string; confirmPassword: string }) => {
    setBusy(true);
    try {
      await forceChangePass(v);
      patchUser({ forceChangePassword: false });
      notify.success(t('force.done'));
      void navigate('/', { replace: true });
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <PublicPage title={t('force.title')}>
      <p>{t('force.text')}</p>
      <Form
        layout="vertical"
        onFinish={(v: { password: string; confirmPassword: string }) => void onFinish(v)}
        requiredMark={false}
      >
        <PasswordFields testIdPrefix="force-password" />
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="force-submit">
          {t('force.submit')}
        </Button>
      </Form>
      <div className="public-links">
        <Button type="link" onClick={() => void logout()} data-testid="logout">
          {t('layout:logout')}
        </Button>
      </div>
    </PublicPage>
  );
}
