import { Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { setTheme, useTheme } from '../lib/theme';

export function ThemeSwitch() {
  const { t } = useTranslation();
  const { theme } = useTheme();
  return (
    <Switch
      data-testid="theme-switch"
      aria-label={t('theme.label')}
      checked={theme === 'dark'}
      checkedChildren={t('theme.dark')}
      unCheckedChildren={t('theme.light')}
      onChange={(dark) => setTheme(dark ? 'dark' : 'light')}
    />
  );
}
