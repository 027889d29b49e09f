import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RemainingDays } from '../components/RemainingDays';
import type { ShareView } from '../api/shares';

const PAGE_TITLES = { case: 'visit.titleCase', order: 'visit.titleOrder', report: 'visit.titleReport' } as const;

/** Who shared it and for how long: the head of every share page. */
export function SharedHeading({ view, extra }: { view: ShareView; extra?: ReactNode }) {
  const { t } = useTranslation('shares');
  return (
    <header className="share-heading">
      <h1>{t(PAGE_TITLES[view.resourceType])}</h1>
      <div className="share-heading-line">
        <span>{t('visit.sharedBy', { organization: view.organizationName })}</span>
        <RemainingDays share={view} />
        {extra}
      </div>
    </header>
  );
}
