import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** "Expires in N days" / "Does not expire" (spec §9: the remaining days are shown to sharer and visitor). */
export function RemainingDays({
  share,
}: {
  share: { remainingDays: number | null; expiresAt: string | null; status?: string };
}) {
  const { t } = useTranslation('shares');
  if (share.status && share.status !== 'active') return null;
  return (
    <Typography.Text type="secondary" data-testid="share-remaining">
      {share.expiresAt === null ? t('remaining.never') : t('remaining.days', { count: share.remainingDays ?? 0 })}
    </Typography.Text>
  );
}
