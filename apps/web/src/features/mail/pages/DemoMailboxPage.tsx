import { Alert, Button, Form, Input } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../../components/PublicPage';
import { useAppConfig } from '../../../lib/appConfig';
import { demoMailbox } from '../api/demoMailbox';
import { mailKeys } from '../api/keys';
import { MailList } from '../components/MailList';
import { listLoading } from '../../../lib/listLoading';

/** Demo mode only: read the mails the portal sent to an address (confirmation and reset links). */
export default function DemoMailboxPage() {
  const { t } = useTranslation('mail');
  const cfg = useAppConfig();
  const [params, setParams] = useSearchParams();
  const email = params.get('email') ?? '';
  const mails = useQuery({
    queryKey: mailKeys.demo(email),
    queryFn: () => demoMailbox(email),
    enabled: cfg.demoMode && email !== '',
    staleTime: 0,
  });
  return (
    <PublicPage title={t('demo.title')} width={760}>
      {!cfg.demoMode ? (
        <Alert type="info" showIcon title={t('demo.disabled')} />
      ) : (
        <>
          <Alert
            type="warning"
            showIcon
            title={t('demo.notice')}
            description={t('demo.scope')}
            className="form-alert"
            data-testid="mailbox-scope"
          />
          <Form
            layout="inline"
            initialValues={{ email }}
            onFinish={(v: { email: string }) => setParams({ email: v.email.trim() })}
          >
            <Form.Item name="email" rules={[{ required: true, message: t('common:required') }]} style={{ flex: 1 }}>
              <Input type="email" placeholder={t('demo.email')} data-testid="mailbox-email" />
            </Form.Item>
            <Button type="primary" htmlType="submit" data-testid="mailbox-submit">
              {t('demo.show')}
            </Button>
            {email ? (
              <Button onClick={() => void mails.refetch()} data-testid="mailbox-refresh">
                {t('common:refresh')}
              </Button>
            ) : null}
          </Form>
          {email ? <MailList mails={mails.data?.list ?? []} loading={listLoading(mails)} /> : null}
        </>
      )}
      <div className="public-links">
        <Link to="/login">{t('common:backToLogin')}</Link>
      </div>
    </PublicPage>
  );
}
