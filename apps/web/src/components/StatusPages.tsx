import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

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

export function LoadFailed() {
  const { t } = useTranslation();
  return <Result status="warning" subTitle={t('loadFailed')} />;
}

export function PageLoading() {
  return (
    <div className="page-loading" role="progressbar" aria-busy="true">
      <span />
    </div>
  );
}
