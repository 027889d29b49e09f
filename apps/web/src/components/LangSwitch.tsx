import { LANGUAGES, LANGUAGE_NAMES } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { setLanguage, useLocale } from '../lib/i18n';

/** A native select: light for the login bundle and easy to drive from tests. */
export function LangSwitch({ onChange }: { onChange?: (lang: string) => void }) {
  const { t } = useTranslation();
  const { lang } = useLocale();
  return (
    <select
      className="lang-switch"
      data-testid="lang-switch"
      aria-label={t('language')}
      value={lang}
      onChange={(e) => {
        void setLanguage(e.target.value).then((l) => onChange?.(l));
      }}
    >
      {LANGUAGES.map((l) => (
        <option key={l} value={l}>
          {LANGUAGE_NAMES[l]}
        </option>
      ))}
    </select>
  );
}
