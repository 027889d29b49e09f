import { useState, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/*
 * Form controls in antd's look without antd: the pages of the first load (the login page, the share pages) draw with
 * these so antd's runtime is not part of that load. Their styles are in app/base.css (light and dark).
 */

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

type InputProps = InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean };

export function PlainInput({ invalid, className, ...rest }: InputProps) {
  return (
    <input
      {...rest}
      aria-invalid={invalid || undefined}
      className={classes('plain-input', invalid && 'plain-input-error', className)}
    />
  );
}

/** A password field with a button that shows what was typed (named for screen readers, in the reader's language). */
export function PlainPassword({ invalid, className, ...rest }: Omit<InputProps, 'type'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <span className={classes('plain-input plain-affix', invalid && 'plain-input-error', className)}>
      <input {...rest} type={visible ? 'text' : 'password'} aria-invalid={invalid || undefined} />
      <button
        type="button"
        className="plain-affix-button"
        aria-label={t(visible ? 'password.hide' : 'password.show')}
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
      >
        <EyeIcon crossed={!visible} />
      </button>
    </span>
  );
}

export function PlainCheckbox({
  children,
  className,
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & { children: ReactNode }) {
  return (
    <label className={classes('plain-checkbox', className)}>
      <input {...rest} type="checkbox" />
      <span>{children}</span>
    </label>
  );
}

export function PlainButton({
  primary,
  block,
  loading,
  className,
  children,
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { primary?: boolean; block?: boolean; loading?: boolean }) {
  return (
    <button
      type="button"
      {...rest}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={classes(
        'plain-button',
        primary && 'plain-button-primary',
        block && 'plain-button-block',
        loading && 'plain-button-loading',
        className,
      )}
    >
      {loading ? <span className="plain-spinner plain-spinner-small" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/** An error message above a form, with antd's error icon. */
export function PlainErrorAlert({ children, ...rest }: { children: ReactNode; 'data-testid'?: string }) {
  return (
    <div {...rest} className="plain-alert plain-alert-error" role="alert">
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
        <circle cx="8" cy="8" r="8" fill="currentColor" />
        <path d="M5.5 5.5l5 5m0-5l-5 5" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
      <span>{children}</span>
    </div>
  );
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        d="M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      />
      <circle cx="12" cy="12" r="3.2" fill="none" stroke="currentColor" strokeWidth="1.8" />
      {crossed ? <path d="M3 21L21 3" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" /> : null}
    </svg>
  );
}
