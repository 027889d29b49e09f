import { checkPassword } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import CheckCircleFilled from '@ant-design/icons/CheckCircleFilled';
import CloseCircleFilled from '@ant-design/icons/CloseCircleFilled';

const COLORS = { weak: '#ff4d4f', medium: '#faad14', strong: '#52c41a' } as const;
const LEVEL = { weak: 1, medium: 2, strong: 3 } as const;

/** Live strength meter and the len / exclude / include checklist of §5. */
export function PasswordStrength({ password }: { password: string | undefined }) {
  const { t } = useTranslation();
  const value = password ?? '';
  const check = checkPassword(value);
  const level = value ? LEVEL[check.strength] : 0;
  const color = COLORS[check.strength];
  return (
    <div className="password-strength" data-testid="password-strength" data-strength={value ? check.strength : ''}>
      <div className="password-strength-bars" aria-hidden>
        {[1, 2, 3].map((i) => (
          <span key={i} style={{ background: i <= level ? color : undefined }} />
        ))}
      </div>
      <div className="password-strength-label">
        {t('password.strengthLabel')}: {value ? t(`password.strength.${check.strength}`) : '—'}
      </div>
      <ul className="password-rules">
        {(['len', 'exclude', 'include'] as const).map((rule) => (
          <li
            key={rule}
            data-testid={`password-rule-${rule}`}
            data-ok={check[rule] && value ? 'true' : 'false'}
            className={check[rule] && value ? 'ok' : ''}
          >
            {check[rule] && value ? <CheckCircleFilled aria-hidden /> : <CloseCircleFilled aria-hidden />}{' '}
            {t(`password.rules.${rule}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
