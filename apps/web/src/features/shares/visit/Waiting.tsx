import { useTranslation } from 'react-i18next';

/** Something is on its way: a spinner, and what is awaited when it takes long. */
export function Waiting({ testId, text }: { testId: string; text?: string }) {
  const { t } = useTranslation('shares');
  return (
    <div className="share-waiting" data-testid={testId} role="status">
      <span className="plain-spinner" aria-label={t('visit.loading')} />
      {text ? <p>{text}</p> : null}
    </div>
  );
}
