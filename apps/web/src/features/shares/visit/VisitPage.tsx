import { Suspense, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '@portal/contracts';
import { LangSwitch } from '../../../components/LangSwitch';
import { PlainButton, PlainInput } from '../../../components/PlainControls';
import { appConfigStore } from '../../../lib/appConfig';
import { ApiError } from '../../../lib/http';
import { rememberShareSign } from '../../../lib/prefs';
import { useStore } from '../../../lib/store';
import { unlockShare } from '../api/shares';
import { Icon } from './icons';
import { useShareVisit } from './useShareVisit';
import { Waiting } from './Waiting';
import { lazyChunk } from '../../../lib/lazyChunk';

// What was shared comes once the share has opened: the password page carries neither its summary nor the report.
const SharedResource = lazyChunk(() => import('./SharedResource'));
const SharedReport = lazyChunk(() => import('./SharedReport'));

/** The frame of a share page: the portal's name, the language switch, the content (always light, spec §2). */
function Frame({ children }: { children: ReactNode }) {
  const cfg = useStore(appConfigStore);
  return (
    <div className="share-page" data-testid="share-page">
      <header className="share-page-header">
        <span className="share-page-brand">{cfg?.appName}</span>
        <LangSwitch />
      </header>
      <main className="share-page-main">{children}</main>
      {cfg?.copyright ? <footer className="public-footer">{cfg.copyright}</footer> : null}
    </div>
  );
}

function PasswordForm({
  code,
  version,
  organizationName,
  onPassed,
}: {
  code: string;
  version: number;
  organizationName: string;
  onPassed: () => void;
}) {
  const { t } = useTranslation('shares');
  const id = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!password) return setError(t('visit.passwordRequired'));
    setBusy(true);
    try {
      const { sign } = await unlockShare(code, password);
      rememberShareSign(code, version, sign);
      onPassed();
    } catch (err) {
      const wrong = err instanceof ApiError && err.code === ERRORS.INVALID_PASSWORD.code;
      const limited = err instanceof ApiError && err.code === ERRORS.TOO_MANY_REQUESTS.code;
      setError(t(wrong ? 'visit.wrongPassword' : limited ? 'visit.tooManyAttempts' : 'visit.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="share-page-card" data-testid="share-password-page">
      <h1>{t('visit.passwordTitle')}</h1>
      <p>{t('visit.passwordIntro', { organization: organizationName })}</p>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor={`${id}-password`}>{t('visit.password')}</label>
        <PlainInput
          id={`${id}-password`}
          invalid={error !== null}
          type="password"
          autoComplete="off"
          // The visitor came for this one field.
          autoFocus
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setError(null);
          }}
          aria-describedby={error ? `${id}-error` : undefined}
          data-testid="share-visit-password"
        />
        {error ? (
          <p id={`${id}-error`} className="share-field-error" role="alert">
            {error}
          </p>
        ) : null}
        <PlainButton type="submit" primary loading={busy} data-testid="share-visit-unlock">
          {t('visit.open')}
        </PlainButton>
      </form>
    </section>
  );
}

/** A full-page answer: the link has ended, or something failed. */
function Outcome({
  kind,
  title,
  text,
  action,
  testId,
}: {
  kind: 'warning' | 'error';
  title: string;
  text?: string;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <section className={`share-outcome share-outcome-${kind}`} data-testid={testId}>
      <Icon name={kind} size={56} />
      <h1>{title}</h1>
      {text ? <p>{text}</p> : null}
      {action}
    </section>
  );
}

/**
 * A share page (/case-show, /order-show, /share/report): no sign-in. The code is in the query string; a password page
 * first when the share has one (a passed password is remembered in this browser until the share changes); the expired
 * page, naming the sharer's organization, once the link has ended; a resource still being prepared is waited for.
 */
export function VisitPage({ code }: { code: string }) {
  const { t } = useTranslation('shares');
  const { visit, reopen } = useShareVisit(code);
  let content: ReactNode;
  switch (visit.state) {
    case 'loading':
      content = <Waiting testId="share-loading" />;
      break;
    case 'preparing':
      content = <Waiting testId="share-preparing" text={t('visit.preparing')} />;
      break;
    case 'ended':
      content = (
        <Outcome
          kind="warning"
          testId="share-expired"
          title={t('visit.expiredTitle')}
          text={
            visit.organizationName
              ? t('visit.expiredBy', { organization: visit.organizationName })
              : t('visit.expiredUnknown')
          }
        />
      );
      break;
    case 'failed':
      content = (
        <Outcome
          kind="error"
          testId="share-failed"
          title={t('visit.failed')}
          action={
            <button type="button" className="plain-button" onClick={reopen}>
              {t('visit.retry')}
            </button>
          }
        />
      );
      break;
    case 'locked':
      content = (
        <PasswordForm
          code={code}
          version={visit.view.version}
          organizationName={visit.view.organizationName}
          onPassed={reopen}
        />
      );
      break;
    case 'open': {
      const { view } = visit;
      content = (
        <Suspense fallback={<Waiting testId="share-loading" />}>
          {view.report ? <SharedReport view={view} report={view.report} /> : <SharedResource view={view} />}
        </Suspense>
      );
    }
  }
  return <Frame>{content}</Frame>;
}
