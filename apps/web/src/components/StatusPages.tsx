import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

function StatusPage({ status, testId, textKey }: { status: '403' | '404'; testId: string; textKey: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status={status}
      title={status}
      subTitle={<span data-testid={testId}>{t(textKey)}</span>}
      extra={
        <Link to="/">
          <Button type="primary">{t('backHome')}</Button>
        </Link>
      }
    />
  );
}

/** Lazy-loaded: the Result component is not needed to show the login page. */
export function NoPermission() {
  return <StatusPage status="403" testId="no-permission" textKey="noPermission" />;
}

export function NotFound() {
  return <StatusPage status="404" testId="not-found" textKey="notFound" />;
}
