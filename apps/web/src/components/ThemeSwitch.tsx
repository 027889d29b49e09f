import { useTranslation } from 'react-i18next';
import { setTheme, useTheme } from '../lib/theme';

/** antd's Switch in look and behaviour, without antd: it sits on the login page, whose first load has a budget. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const { theme } = useTheme();
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      role="switch"
      className="plain-switch"
      data-testid="theme-switch"
      aria-checked={dark}
      aria-label={t('theme.label')}
      onClick={() => setTheme(dark ? 'light' : 'dark')}
    >
      <span className="plain-switch-handle" aria-hidden="true" />
      {dark ? t('theme.dark') : t('theme.light')}
    </button>
  );
}
