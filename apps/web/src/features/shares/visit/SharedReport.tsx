import { useTranslation } from 'react-i18next';
import { serverLink } from '../../../lib/download';
import { ReportDocument } from '../../reports';
import type { ShareView } from '../api/shares';
import { SharedHeading } from './SharedHeading';
import { Icon } from './icons';

// Loaded once the share has opened, so the password page does not carry the report's layout.
/** A shared report: the latest published version as the patient sees it, and its PDF. */
export default function SharedReport({ view, report }: { view: ShareView; report: NonNullable<ShareView['report']> }) {
  const { t } = useTranslation('shares');
  const images = new Map(report.images.map((i) => [`${i.source}:${i.code}`, i.url]));
  return (
    <div className="share-content" data-testid="share-content">
      <SharedHeading
        view={view}
        extra={
          <a
            className="plain-button plain-button-primary"
            href={serverLink(report.pdfUrl)}
            data-testid="share-report-pdf"
          >
            <Icon name="download" />
            {t('visit.downloadPdf')}
          </a>
        }
      />
      <ReportDocument
        view={report}
        renderImage={(image) => (
          <img
            src={serverLink(images.get(`${image.source}:${image.code}`) ?? '')}
            alt={image.caption}
            loading="lazy"
            style={{ width: '100%', height: 180, objectFit: 'contain', background: '#f5f5f5', borderRadius: 6 }}
          />
        )}
      />
    </div>
  );
}
