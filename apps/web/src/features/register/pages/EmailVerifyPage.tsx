import { useState } from 'react';
import { Button, Form, Input, Result, Spin } from 'antd';
import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ERRORS, OrgType, ReviewStatus } from '@portal/contracts';
import { PublicPage } from '../../../components/PublicPage';
import { ApiError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { emailConfirm } from '../api/emailConfirm';
import { registerKeys } from '../api/keys';
import { resendConfirm } from '../api/resendConfirm';

export default function EmailVerifyPage() {
  const { t } = useTranslation('register');
  const { id = '' } = useParams();
  const confirm = useQuery({
    queryKey: registerKeys.emailConfirm(id),
    queryFn: () => emailConfirm(id),
    staleTime: Infinity,
    gcTime: 0,
  });
  const [busy, setBusy] = useState(false);

  const resend = async ({ email }: { email: string }) => {
    setBusy(true);
    try {
      await resendConfirm(email.trim());
      notify.success(t('result.resent'));
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };

  const toLogin = (
    <Link to="/login">
      <Button type="primary">{t('verify.signIn')}</Button>
    </Link>
  );
  let body;
  if (confirm.isPending) body = <Spin />;
  else if (confirm.isError) {
    const code = confirm.error instanceof ApiError ? confirm.error.code : 0;
    if (code === ERRORS.ALREADY_ACTIVATED.code) {
      body = (
        <Result status="info" title={<span data-testid="verify-result">{t('verify.already')}</span>} extra={toLogin} />
      );
    } else {
      const title =
        code === ERRORS.LINK_EXPIRED.code
          ? t('verify.expired')
          : code === ERRORS.INVALID_LINK.code
            ? t('verify.invalid')
            : confirm.error.message;
      body = (
        <>
          <Result
            status="warning"
            title={<span data-testid="verify-result">{title}</span>}
            subTitle={t('verify.resendText')}
          />
          <Form layout="vertical" onFinish={(v: { email: string }) => void resend(v)} requiredMark={false}>
            <Form.Item
              name="email"
              label={t('field.email')}
              rules={[{ required: true, type: 'email', message: t('common:emailInvalid') }]}
            >
              <Input type="email" data-testid="verify-email" />
            </Form.Item>
            <Button htmlType="submit" block loading={busy} data-testid="verify-resend">
              {t('result.resend')}
            </Button>
          </Form>
        </>
      );
    }
  } else {
    const pending = confirm.data.orgType === OrgType.Lab && confirm.data.reviewStatus === ReviewStatus.Pending;
    body = pending ? (
      <Result
        status="info"
        title={<span data-testid="verify-result">{t('verify.pendingTitle')}</span>}
        subTitle={t('verify.pendingText')}
        extra={toLogin}
      />
    ) : (
      <Result
        status="success"
        title={<span data-testid="verify-result">{t('verify.successTitle')}</span>}
        subTitle={t('verify.successText', { account: confirm.data.account })}
        extra={toLogin}
      />
    );
  }
  return (
    <PublicPage title={t('verify.title')} width={520}>
      {body}
    </PublicPage>
  );
}
