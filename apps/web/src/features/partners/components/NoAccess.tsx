import { Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** §6: partner management is for clinic and laboratory administrators; shown as the page content. */
export function NoAccess() {
  const { t } = useTranslation('partners');
  return <Result status="403" data-testid="partner-no-access" title={t('noAccess')} />;
}
