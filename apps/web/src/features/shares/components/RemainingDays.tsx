import { useTranslation } from 'react-i18next';

/**
 * "Days left: N" / "Does not expire" (spec §9: the remaining days are shown to sharer and visitor). Plain text in the
 * page's muted colour: the visitor's page loads no antd.
 */
export function RemainingDays({
  share,
}: {
  share: { remainingDays: number | null; expiresAt: string | null; status?: string };
}) {
  const { t } = useTranslation('shares');
  if (share.status && share.status !== 'active') return null;
  return (
    <span className="muted" data-testid="share-remaining">
      {share.expiresAt === null ? t('remaining.never') : t('remaining.days', { count: share.remainingDays ?? 0 })}
    </span>
  );
}
