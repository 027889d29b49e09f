import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyModelViewer, ViewerBoundary, type ModelViewerModel } from '../../../components/ModelViewer';
import { formatDate } from '../../../lib/dates';
import { serverLink } from '../../../lib/download';
import { sizeText } from '../../../lib/sizes';
import type { ShareView } from '../api/shares';
import { Icon } from './icons';
import { SharedHeading } from './SharedHeading';
import { Waiting } from './Waiting';

// Loaded once the share has opened, so the password page carries neither the summary nor the file list.
const VIEWABLE = new Set(['stl', 'ply', 'obj']);
type SharedFile = ShareView['files'][number];

/** The models together in the 3D viewer, whose code (three.js) is fetched only now. */
function SharedModels({ files }: { files: SharedFile[] }) {
  const { t } = useTranslation('shares');
  const { t: tc } = useTranslation('common');
  const models: ModelViewerModel[] = files
    .filter((f) => f.kind === 'model' && VIEWABLE.has(f.format))
    .map((f) => ({
      id: f.fileCode,
      label: f.name,
      jaw: f.jaw ?? undefined,
      compactUrl: f.viewerUrl ? serverLink(f.viewerUrl) : undefined,
      originalUrl: serverLink(f.url),
      format: f.format as ModelViewerModel['format'],
    }));
  if (models.length === 0) return null;
  const failed = (
    <p className="share-alert" role="alert" data-testid="model-viewer-error">
      <Icon name="warning" />
      {t('visit.viewerFailed')}
    </p>
  );
  return (
    <div data-testid="share-viewer">
      <ViewerBoundary fallback={failed}>
        <Suspense fallback={<Waiting testId="share-viewer-loading" />}>
          <LazyModelViewer models={models} t={(key) => tc(key)} height="min(60vh, 520px)" />
        </Suspense>
      </ViewerBoundary>
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="share-summary-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A case's labels come from the cases texts; an order's status also from the orders texts. */
const namespacesOf = (view: ShareView) => (view.order ? ['shares', 'cases', 'orders'] : ['shares', 'cases']);

function Summary({ view }: { view: ShareView }) {
  const { t } = useTranslation(namespacesOf(view));
  const treatments = (list: readonly string[]) =>
    list.length
      ? list.map((x) => (
          <span className="share-tag" key={x}>
            {t(`cases:treatment.${x}`, { defaultValue: x })}
          </span>
        ))
      : '—';
  if (view.case) {
    const c = view.case;
    return (
      <dl className="share-summary" data-testid="share-summary">
        <Row label={t('visit.caseName')}>{c.name}</Row>
        {c.patientName !== null ? <Row label={t('visit.patient')}>{c.patientName}</Row> : null}
        <Row label={t('visit.scanDate')}>{formatDate(c.scanDate) || '—'}</Row>
        <Row label={t('visit.treatments')}>{treatments(c.treatments)}</Row>
      </dl>
    );
  }
  if (view.order) {
    const o = view.order;
    return (
      <dl className="share-summary" data-testid="share-summary">
        <Row label={t('visit.orderCode')}>{o.orderCode}</Row>
        <Row label={t('visit.status')}>{t(`orders:status.${o.status}`)}</Row>
        <Row label={t('visit.caseName')}>{o.caseName}</Row>
        {o.patientName !== null ? <Row label={t('visit.patient')}>{o.patientName}</Row> : null}
        <Row label={t('visit.treatments')}>{treatments(o.workTypes)}</Row>
        <Row label={t('visit.clinic')}>{o.clinicName}</Row>
        <Row label={t('visit.lab')}>{o.labName}</Row>
        <Row label={t('visit.requestedDelivery')}>{formatDate(o.requestedDeliveryDate) || '—'}</Row>
      </dl>
    );
  }
  return null;
}

/** A shared case or order: its summary, its models in the 3D viewer and its files. */
export default function SharedResource({ view }: { view: ShareView }) {
  const { t, ready } = useTranslation(namespacesOf(view));
  // The case and order labels come with this part of the page: nothing shows as a raw key while they arrive.
  if (!ready) return <Waiting testId="share-loading" />;
  return (
    <div className="share-content" data-testid="share-content">
      <SharedHeading view={view} />
      <Summary view={view} />
      <SharedModels files={view.files} />
      <section>
        <h2>{t('visit.files', { count: view.files.length })}</h2>
        {view.files.length === 0 ? (
          <p className="muted">{t('visit.noFiles')}</p>
        ) : (
          <ul className="share-files" data-testid="share-files">
            {view.files.map((f) => (
              <li key={f.fileCode}>
                <span className="share-file-name">
                  {f.name} <span className="muted">({sizeText(f.size)})</span>
                </span>
                <a
                  className="plain-button plain-button-small"
                  href={`${serverLink(f.url)}&download=1`}
                  aria-label={t('visit.downloadFile', { name: f.name })}
                >
                  <Icon name="download" />
                  {t('visit.download')}
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
