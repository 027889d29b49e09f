import { useState } from 'react';
import { Button, Form, Result, Spin } from 'antd';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '@portal/contracts';
import { PublicPage } from '../../../components/PublicPage';
import { PasswordFields } from '../../../components/PasswordFields';
import { ApiError } from '../../../lib/http';
import { forgetPassEmailConfirm } from '../api/forgetPassEmailConfirm';
import { authKeys } from '../api/keys';
import { forgetPassResetPass } from '../api/forgetPassResetPass';

/** /forget-pass/:id, /set-pass/:id and /set-password/:id: validate the link, then set a new password. */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const { id = '' } = useParams();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const link = useQuery({
    queryKey: authKeys.resetLink(id),
    queryFn: () => forgetPassEmailConfirm(id),
    staleTime: Infinity,
    gcTime: 0,
  });

  const onFinish = async (v: { password: string; confirmPassword: string }) => {
    setBusy(true);
    try {
      await forgetPassResetPass({ id, ...v });
      setDone(true);
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (link.isPending) body = <Spin />;
  else if (link.isError) {
    const code = link.error instanceof ApiError ? link.error.code : 0;
    body = (
      <Result
        status="warning"
        title={
          <span data-testid="reset-link-error">
            {code === ERRORS.LINK_EXPIRED.code ? t('reset.expired') : t('reset.invalid')}
          </span>
        }
        extra={
          <Link to="/forget-pass-account">
            <Button type="primary">{t('reset.again')}</Button>
          </Link>
        }
      />
    );
  } else if (done) {
    body = (
      <Result
        status="success"
        title={<span data-testid="reset-done">{t('reset.done')}</span>}
        extra={
          <Link to="/login">
            <Button type="primary">{t('common:backToLogin')}</Button>
          </Link>
        }
      />
    );
  } else {
    body = (
      <Form
        layout="vertical"
        onFinish={(v: { password: string; confirmPassword: string }) => void onFinish(v)}
        requiredMark={false}
      >
        <p>{t('reset.forAccount', { account: link.data.account })}</p>
        <PasswordFields testIdPrefix="reset-password" />
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="reset-submit">
          {t('reset.submit')}
        </Button>
      </Form>
    );
  }
  return <PublicPage title={t('reset.title')}>{body}</PublicPage>;
}
