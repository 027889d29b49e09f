import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Form, Input, Result, Spin, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '@portal/contracts';
import { LangSwitch } from '../../../components/LangSwitch';
import { ApiError } from '../../../lib/http';
import { useAppConfig } from '../../../lib/appConfig';
import { forgetShareSign, rememberShareSign, shareSign } from '../../../lib/prefs';
import { openShare, unlockShare } from '../api/shares';
import { shareKeys } from '../api/keys';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['shares'];

/** How long a visitor waits between tries while the shared resource is prepared (2007), and how many tries. */
const PREPARING_RETRY_MS = 3000;
const PREPARING_TRIES = 40;
/** An ended link: 2020, or 2009 for a report's (spec §8). */
const ENDED_CODES = new Set<number>([ERRORS.LINK_EXPIRED.code, ERRORS.REPORT_LINK_EXPIRED.code]);
// What was shared comes once the share has opened: the password page carries neither its summary nor the report.
const SharedResource = lazy(() => import('../components/SharedResource'));
const SharedReport = lazy(() => import('../components/SharedReport'));

/** The frame of a share page: the portal's name, the language switch, the content (always light, spec §2). */
function Frame({ children }: { children: ReactNode }) {
  const cfg = useAppConfig();
  return (
    <div className="share-page" data-testid="share-page">
      <header className="share-page-header">
        <span className="share-page-brand">{cfg.appName}</span>
        <LangSwitch />
      </header>
      <main className="share-page-main">{children}</main>
      {cfg.copyright ? <footer className="public-footer">{cfg.copyright}</footer> : null}
    </div>
  );
}

function PasswordForm({
  code,
  version,
  onPassed,
  organizationName,
}: {
  code: string;
  version: number;
  onPassed: () => void;
  organizationName: string;
}) {
  const { t } = useTranslation('shares');
  const [form] = Form.useForm<{ password: string }>();
  const unlock = useMutation({
    mutationFn: (password: string) => unlockShare(code, password),
    onError: (err) => {
      const wrong = err instanceof ApiError && err.code === ERRORS.INVALID_PASSWORD.code;
      const limited = err instanceof ApiError && err.code === ERRORS.TOO_MANY_REQUESTS.code;
      form.setFields([
        {
          name: 'password',
          errors: [t(wrong ? 'visit.wrongPassword' : limited ? 'visit.tooManyAttempts' : 'visit.failed')],
        },
      ]);
    },
  });
  return (
    <section className="share-page-card" data-testid="share-password-page">
      <Typography.Title level={2}>{t('visit.passwordTitle')}</Typography.Title>
      <Typography.Paragraph>{t('visit.passwordIntro', { organization: organizationName })}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={({ password }) =>
          unlock.mutate(password, {
            onSuccess: ({ sign }) => {
              rememberShareSign(code, version, sign);
              onPassed();
            },
          })
        }
      >
        <Form.Item
          name="password"
          label={t('visit.password')}
          rules={[{ required: true, message: t('visit.passwordRequired') }]}
        >
          <Input.Password autoFocus autoComplete="off" data-testid="share-visit-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={unlock.isPending} data-testid="share-visit-unlock">
          {t('visit.open')}
        </Button>
      </Form>
    </section>
  );
}

function Ended({ organizationName }: { organizationName: string | null }) {
  const { t } = useTranslation('shares');
  return (
    <Result
      status="warning"
      title={t('visit.expiredTitle')}
      subTitle={organizationName ? t('visit.expiredBy', { organization: organizationName }) : t('visit.expiredUnknown')}
      data-testid="share-expired"
    />
  );
}

/**
 * A share page (/case-show, /order-show, /share/report): no sign-in. The code is in the query string; a password page first when
 * the share has one (a passed password is remembered in this browser until the share changes); the expired page,
 * naming the sharer's organization, once the link has ended; a resource still being prepared is waited for.
 */
export default function SharedPage() {
  const { t } = useTranslation('shares');
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const queryClient = useQueryClient();
  const [signed, setSigned] = useState(0);
  const view = useQuery({
    queryKey: [...shareKeys.visit(code), signed],
    queryFn: async () => {
      const sign = shareSign(code);
      const opened = await openShare(code, sign);
      // A remembered sign the share no longer takes (it changed): the password is asked for again.
      if (opened.locked && sign) forgetShareSign(code);
      return opened;
    },
    enabled: code.length > 0,
    // Every opening is a view in the sharer's access log: the page asks once.
    staleTime: Infinity,
    retry: (tries, err) =>
      err instanceof ApiError && err.code === ERRORS.RESOURCE_PREPARING.code && tries < PREPARING_TRIES,
    retryDelay: PREPARING_RETRY_MS,
  });
  const preparing =
    view.failureReason instanceof ApiError && view.failureReason.code === ERRORS.RESOURCE_PREPARING.code;

  let content: ReactNode;
  if (!code) content = <Ended organizationName={null} />;
  else if (view.isPending)
    content = (
      <div style={{ textAlign: 'center', padding: 48 }} data-testid={preparing ? 'share-preparing' : 'share-loading'}>
        <Spin />
        {preparing ? <Typography.Paragraph>{t('visit.preparing')}</Typography.Paragraph> : null}
      </div>
    );
  else if (view.isError) {
    const err = view.error;
    if (err instanceof ApiError && ENDED_CODES.has(err.code)) {
      forgetShareSign(code);
      const data = err.data as { organizationName?: string | null } | null;
      content = <Ended organizationName={data?.organizationName ?? null} />;
    } else {
      content = (
        <Result
          status="error"
          title={t('visit.failed')}
          extra={<Button onClick={() => void view.refetch()}>{t('visit.retry')}</Button>}
        />
      );
    }
  } else if (view.data.locked)
    content = (
      <PasswordForm
        code={code}
        version={view.data.version}
        organizationName={view.data.organizationName}
        onPassed={() => {
          void queryClient.removeQueries({ queryKey: shareKeys.visit(code) });
          setSigned((n) => n + 1);
        }}
      />
    );
  else
    content = (
      <Suspense fallback={<Spin />}>
        {view.data.report ? (
          <SharedReport view={view.data} report={view.data.report} />
        ) : (
          <SharedResource view={view.data} />
        )}
      </Suspense>
    );
  return <Frame>{content}</Frame>;
}
