import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Lazy-loaded: the Result component is not needed to show the login page. */
export function NoPermission() {
  const { t } = useTranslation();
  return (
    <Result
      status="403"
      title="403"
      subTitle={<span data-testid="no-permission">{t('noPermission')}</span>}
      extra={
        <Link to="/">
          <Button type="primary">{t('backHome')}</Button>
        </Link>
      }
    />
  );
}

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title="404"
      subTitle={<span data-testid="not-found">{t('notFound')}</span>}
      extra={
        <Link to="/">
          <Button type="primary">{t('backHome')}</Button>
        </Link>
      }
    />
  );
}

