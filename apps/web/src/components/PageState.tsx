import { useTranslation } from 'react-i18next';

/** Light-weight states used by the router itself (kept free of antd so they stay in the start-up bundle cheaply). */
export function LoadFailed() {
  const { t } = useTranslation();
  return (
    <div className="load-failed" role="alert">
      {t('loadFailed')}
    </div>
  );
}

export function PageLoading() {
  return (
    <div className="page-loading" role="progressbar" aria-busy="true">
      <span />
    </div>
  );
}
