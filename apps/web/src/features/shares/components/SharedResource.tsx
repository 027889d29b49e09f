import { Suspense, type ReactNode } from 'react';
import { Alert, Button, Space, Spin, Tag, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LazyModelViewer, ViewerBoundary, type ModelViewerModel } from '../../../components/ModelViewer';
import { formatDate } from '../../../lib/dates';
import { serverLink } from '../../../lib/download';
import { sizeText } from '../../../lib/sizes';
import type { ShareView } from '../api/shares';
import { SharedHeading } from './SharedHeading';

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
  const failed = <Alert type="warning" showIcon title={t('visit.viewerFailed')} data-testid="model-viewer-error" />;
  return (
    <div data-testid="share-viewer">
      <ViewerBoundary fallback={failed}>
        <Suspense fallback={<Spin />}>
          <LazyModelViewer models={models} t={(key) => tc(key)} height="min(60vh, 520px)" />
        </Suspense>
      </ViewerBoundary>
    </div>
  );
}

/** One line of the summary (a plain list: antd's Descriptions would weigh on the visitor's first load). */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="share-summary-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Summary({ view }: { view: ShareView }) {
  const { t } = useTranslation(['shares', 'cases', 'orders']);
  const treatments = (list: readonly string[]) =>
    list.length ? list.map((x) => <Tag key={x}>{t(`cases:treatment.${x}`, { defaultValue: x })}</Tag>) : '—';
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
  const { t, ready } = useTranslation(['shares', 'cases', 'orders']);
  // The case and order labels come with this part of the page: nothing shows as a raw key while they arrive.
  if (!ready) return <Spin />;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="share-content">
      <SharedHeading view={view} />
      <Summary view={view} />
      <SharedModels files={view.files} />
      <section>
        <Typography.Title level={3}>{t('visit.files', { count: view.files.length })}</Typography.Title>
        {/* Plain markup: antd's List would bring its pagination and grid into the visitor's first load. */}
        {view.files.length === 0 ? (
          <Typography.Paragraph type="secondary">{t('visit.noFiles')}</Typography.Paragraph>
        ) : (
          <ul className="share-files" data-testid="share-files">
            {view.files.map((f) => (
              <li key={f.fileCode}>
                <span style={{ overflowWrap: 'anywhere' }}>
                  {f.name} <Typography.Text type="secondary">({sizeText(f.size)})</Typography.Text>
                </span>
                <Button
                  size="small"
                  icon={<DownloadOutlined aria-hidden />}
                  href={`${serverLink(f.url)}&download=1`}
                  aria-label={t('visit.downloadFile', { name: f.name })}
                >
                  {t('visit.download')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Space>
  );
}
