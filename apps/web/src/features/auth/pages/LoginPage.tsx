import { Suspense, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorByCode, ERRORS } from '@portal/contracts';
import { PublicPage } from '../../../components/PublicPage';
// No antd on this page: it is the first load and has a size budget (its dialog brings antd when it opens).
import {
  PlainButton,
  PlainCheckbox,
  PlainErrorAlert,
  PlainInput,
  PlainPassword,
} from '../../../components/PlainControls';
import { lazyThemed } from '../../../components/lazyThemed';
import { ApiError } from '../../../lib/http';
import { useAppConfig } from '../../../lib/appConfig';
import { setPendingRedirect, signIn, takeSignedOutReason } from '../../../lib/session';
import { login, type LoginFailureData } from '../api/login';
import { captchaImageUrl, captchaInit } from '../api/captchaInit';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['systemCheck'];

const ActivationDialog = lazyThemed(() => import('../components/ActivationDialog'));

interface Values {
  account: string;
  password: string;
  saveLogin: boolean;
  captchaCode: string;
}
type FieldName = 'account' | 'password' | 'captchaCode';

function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
      {error ? (
        <div className="field-error" role="alert" data-testid={`${id}-error`}>
          {error}
        </div>
      ) : null}
    </div>
  );
}

export default function LoginPage() {
  const { t } = useTranslation(['auth', 'systemCheck']);
  const cfg = useAppConfig();
  const [params] = useSearchParams();
  const [values, setValues] = useState<Values>({ account: '', password: '', saveLogin: false, captchaCode: '' });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({});
  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setFieldErrors((e) => ({ ...e, [key]: undefined }));
  };
  const [busy, setBusy] = useState(false);
  // Signed out by the server (organization disabled, session ended): the page says why until the next attempt.
  const [error, setError] = useState<string | null>(takeSignedOutReason);
  const [captchaId, setCaptchaId] = useState<string | null>(null);
  const [findSite, setFindSite] = useState(false);
  const [inactiveAccount, setInactiveAccount] = useState<string | null>(null);

  const refreshCaptcha = async () => {
    try {
      const res = await captchaInit();
      setCaptchaId(res.captchaId);
      setValues((v) => ({ ...v, captchaCode: '' }));
    } catch {
      /* the http client already reported it */
    }
  };

  const messageOf = (e: ApiError) => {
    const known = errorByCode(e.code);
    return known ? t(known.key, { ns: 'errors', defaultValue: e.msg }) : e.msg;
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const missing: Partial<Record<FieldName, string>> = {};
    if (!values.account.trim()) missing.account = t('common:required');
    if (!values.password) missing.password = t('common:required');
    if (captchaId && !values.captchaCode.trim()) missing.captchaCode = t('common:required');
    setFieldErrors(missing);
    if (Object.keys(missing).length === 0) void onFinish(values);
  };

  const onFinish = async (v: Values) => {
    setBusy(true);
    setError(null);
    const account = v.account.trim();
    try {
      const pair = await login({
        account,
        password: v.password,
        saveLogin: Boolean(v.saveLogin),
        ...(captchaId ? { captchaId, captchaCode: v.captchaCode.trim() } : {}),
      });
      const redirectUrl = params.get('redirectUrl');
      setPendingRedirect(redirectUrl ? { url: redirectUrl, userCode: params.get('userCode') } : null);
      signIn(pair, Boolean(v.saveLogin), '/');
    } catch (e) {
      if (!(e instanceof ApiError)) return setError(String(e));
      if (e.code === ERRORS.EMAIL_NOT_VERIFIED.code) return setInactiveAccount(account);
      // The region modal is shown by the http client.
      if (e.code === ERRORS.REGION_MISMATCH.code) return;
      const failure = e.data as LoginFailureData | null;
      if (failure?.captchaRequired || e.code === ERRORS.CAPTCHA_REQUIRED.code) {
        setFindSite(true);
        // A wrong code burns the captcha: always fetch a new one.
        void refreshCaptcha();
      }
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicPage title={t('login.title')}>
      <form onSubmit={onSubmit} noValidate>
        {error ? (
          <div className="form-alert">
            <PlainErrorAlert data-testid="login-error">{error}</PlainErrorAlert>
          </div>
        ) : null}
        <Field id="login-account" label={t('login.account')} error={fieldErrors.account}>
          <PlainInput
            id="login-account"
            autoComplete="username"
            data-testid="login-account"
            placeholder={t('login.accountPlaceholder')}
            invalid={Boolean(fieldErrors.account)}
            value={values.account}
            onChange={(e) => set('account', e.target.value)}
          />
        </Field>
        <Field id="login-password" label={t('login.password')} error={fieldErrors.password}>
          <PlainPassword
            id="login-password"
            autoComplete="current-password"
            data-testid="login-password"
            invalid={Boolean(fieldErrors.password)}
            value={values.password}
            onChange={(e) => set('password', e.target.value)}
          />
        </Field>
        {captchaId ? (
          <Field id="login-captcha" label={t('login.captcha')} error={fieldErrors.captchaCode}>
            <div className="captcha-row">
              <PlainInput
                id="login-captcha"
                data-testid="login-captcha"
                autoComplete="off"
                maxLength={16}
                invalid={Boolean(fieldErrors.captchaCode)}
                value={values.captchaCode}
                onChange={(e) => set('captchaCode', e.target.value)}
              />
              {/* A button, so the keyboard and screen readers can ask for another picture too. */}
              <button
                type="button"
                className="captcha-button"
                title={t('login.captchaRefresh')}
                data-testid="login-captcha-refresh"
                onClick={() => void refreshCaptcha()}
              >
                <img
                  src={captchaImageUrl(captchaId)}
                  alt={t('login.captchaAlt')}
                  className="captcha-image"
                  data-testid="login-captcha-image"
                />
              </button>
            </div>
          </Field>
        ) : null}
        <div className="field">
          <PlainCheckbox
            data-testid="login-save"
            checked={values.saveLogin}
            onChange={(e) => set('saveLogin', e.target.checked)}
          >
            {t('login.saveLogin')}
          </PlainCheckbox>
        </div>
        <PlainButton type="submit" primary block loading={busy} data-testid="login-submit">
          {t('login.submit')}
        </PlainButton>
      </form>
      <div className="public-links">
        <Link to="/register" data-testid="login-register">
          {t('login.register')}
        </Link>
        <Link to="/forget-pass-account" data-testid="login-forgot">
          {t('login.forgot')}
        </Link>
        <Link to="/system-check" data-testid="login-system-check">
          {t('systemCheck:link')}
        </Link>
        {cfg.demoMode ? (
          <Link to="/mailbox" data-testid="login-mailbox">
            {t('login.demoMailbox')}
          </Link>
        ) : null}
      </div>
      {findSite ? (
        <div className="find-site" data-testid="login-find-site">
          <p>{t('findSite.offer')}</p>
          <PlainInput
            type="email"
            aria-label={t('findSite.email')}
            placeholder={t('findSite.email')}
            disabled
            data-testid="login-find-site-email"
          />
          <p className="hint">{t('findSite.unavailable')}</p>
          {cfg.supportUrl ? (
            <a href={cfg.supportUrl} target="_blank" rel="noreferrer">
              {t('findSite.support')}
            </a>
          ) : null}
        </div>
      ) : null}
      {inactiveAccount !== null ? (
        <Suspense fallback={null}>
          <ActivationDialog account={inactiveAccount} onClose={() => setInactiveAccount(null)} />
        </Suspense>
      ) : null}
    </PublicPage>
  );
}
