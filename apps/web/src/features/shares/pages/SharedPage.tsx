import { Component, Suspense, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Form, Input, Result, Space, Spin, Tag, Typography } from 'antd';
import { DownloadOutlined, FilePdfOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ERRORS } from '@portal/contracts';
import { LazyModelViewer, type ModelViewerModel } from '../../../components/ModelViewer';
import { LangSwitch } from '../../../components/LangSwitch';
import { ApiError } from '../../../lib/http';
import { useAppConfig } from '../../../lib/appConfig';
import { formatDate } from '../../../lib/dates';
import { serverLink } from '../../../lib/download';
import { sizeText } from '../../../lib/sizes';
import { forgetShareSign, rememberShareSign, shareSign } from '../../../lib/prefs';
import { openShare, unlockShare, type ShareView } from '../api/shares';
import { shareKeys } from '../api/keys';
import { RemainingDays } from '../components/RemainingDays';
import { ReportDocument } from '../../reports';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['shares', 'cases', 'orders'];

/** How long a visitor waits between tries while the shared resource is prepared (2007), and how many tries. */
const PREPARING_RETRY_MS = 3000;
const PREPARING_TRIES = 40;
const VIEWABLE = new Set(['stl', 'ply', 'obj']);
/** An ended link: 2020, or 2009 for a report's (spec §8). */
const ENDED_CODES = new Set<number>([ERRORS.LINK_EXPIRED.code, ERRORS.REPORT_LINK_EXPIRED.code]);
type SharedFile = ShareView['files'][number];

/** The frame of a share page: the portal's name, the language switch, the content (always light, spec §2). */
function Frame({ children }: { children: ReactNode }) {
  const cfg = useAppConfig();
  return (
    <div className="share-page" data-testid="share-page">
      <header className="share-page-header">
        <span className="share-page-brand">{cfg.appName}</span>
        <LangSwitch />
      </header>
      <main className="share-page-main">{children}</main>
      {cfg.copyright ? <footer className="public-footer">{cfg.copyright}</footer> : null}
    </div>
  );
}

function PasswordForm({
  code,
  version,
  onPassed,
  organizationName,
}: {
  code: string;
  version: number;
  onPassed: () => void;
  organizationName: string;
}) {
  const { t } = useTranslation('shares');
  const [form] = Form.useForm<{ password: string }>();
  const unlock = useMutation({
    mutationFn: (password: string) => unlockShare(code, password),
    onError: (err) => {
      const wrong = err instanceof ApiError && err.code === ERRORS.INVALID_PASSWORD.code;
      const limited = err instanceof ApiError && err.code === ERRORS.TOO_MANY_REQUESTS.code;
      form.setFields([
        {
          name: 'password',
          errors: [t(wrong ? 'visit.wrongPassword' : limited ? 'visit.tooManyAttempts' : 'visit.failed')],
        },
      ]);
    },
  });
  return (
    <section className="share-page-card" data-testid="share-password-page">
      <Typography.Title level={2}>{t('visit.passwordTitle')}</Typography.Title>
      <Typography.Paragraph>{t('visit.passwordIntro', { organization: organizationName })}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={({ password }) =>
          unlock.mutate(password, {
            onSuccess: ({ sign }) => {
              rememberShareSign(code, version, sign);
              onPassed();
            },
          })
        }
      >
        <Form.Item
          name="password"
          label={t('visit.password')}
          rules={[{ required: true, message: t('visit.passwordRequired') }]}
        >
          <Input.Password autoFocus autoComplete="off" data-testid="share-visit-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={unlock.isPending} data-testid="share-visit-unlock">
          {t('visit.open')}
        </Button>
      </Form>
    </section>
  );
}

function Ended({ organizationName }: { organizationName: string | null }) {
  const { t } = useTranslation('shares');
  return (
    <Result
      status="warning"
      title={t('visit.expiredTitle')}
      subTitle={organizationName ? t('visit.expiredBy', { organization: organizationName }) : t('visit.expiredUnknown')}
      data-testid="share-expired"
    />
  );
}

class ViewerBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

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

const PAGE_TITLES = { case: 'visit.titleCase', order: 'visit.titleOrder', report: 'visit.titleReport' } as const;

/** Who shared it and for how long: the head of every share page. */
function SharedHeading({ view, extra }: { view: ShareView; extra?: ReactNode }) {
  const { t } = useTranslation('shares');
  return (
    <div>
      <Typography.Title level={2} style={{ marginBottom: 4 }}>
        {t(PAGE_TITLES[view.resourceType])}
      </Typography.Title>
      <Space wrap>
        <Typography.Text>{t('visit.sharedBy', { organization: view.organizationName })}</Typography.Text>
        <RemainingDays share={view} />
        {extra}
      </Space>
    </div>
  );
}

/** A shared report: the latest published version as the patient sees it, and its PDF. */
function SharedReportView({ view, report }: { view: ShareView; report: NonNullable<ShareView['report']> }) {
  const { t } = useTranslation('shares');
  const images = new Map(report.images.map((i) => [`${i.source}:${i.code}`, i.url]));
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="share-content">
      <SharedHeading
        view={view}
        extra={
          <Button
            type="primary"
            icon={<FilePdfOutlined aria-hidden />}
            href={serverLink(report.pdfUrl)}
            data-testid="share-report-pdf"
          >
            {t('visit.downloadPdf')}
          </Button>
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
    </Space>
  );
}

function Shared({ view }: { view: ShareView }) {
  const { t } = useTranslation('shares');
  if (view.report) return <SharedReportView view={view} report={view.report} />;
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

/**
 * A share page (/case-show, /order-show, /share/report): no sign-in. The code is in the query string; a password page first when
 * the share has one (a passed password is remembered in this browser until the share changes); the expired page,
 * naming the sharer's organization, once the link has ended; a resource still being prepared is waited for.
 */
export default function SharedPage() {
  const { t } = useTranslation('shares');
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const queryClient = useQueryClient();
  const [signed, setSigned] = useState(0);
  const view = useQuery({
    queryKey: [...shareKeys.visit(code), signed],
    queryFn: async () => {
      const sign = shareSign(code);
      const opened = await openShare(code, sign);
      // A remembered sign the share no longer takes (it changed): the password is asked for again.
      if (opened.locked && sign) forgetShareSign(code);
      return opened;
    },
    enabled: code.length > 0,
    // Every opening is a view in the sharer's access log: the page asks once.
    staleTime: Infinity,
    retry: (tries, err) =>
      err instanceof ApiError && err.code === ERRORS.RESOURCE_PREPARING.code && tries < PREPARING_TRIES,
    retryDelay: PREPARING_RETRY_MS,
  });
  const preparing =
    view.failureReason instanceof ApiError && view.failureReason.code === ERRORS.RESOURCE_PREPARING.code;

  let content: ReactNode;
  if (!code) content = <Ended organizationName={null} />;
  else if (view.isPending)
    content = (
      <div style={{ textAlign: 'center', padding: 48 }} data-testid={preparing ? 'share-preparing' : 'share-loading'}>
        <Spin />
        {preparing ? <Typography.Paragraph>{t('visit.preparing')}</Typography.Paragraph> : null}
      </div>
    );
  else if (view.isError) {
    const err = view.error;
    if (err instanceof ApiError && ENDED_CODES.has(err.code)) {
      forgetShareSign(code);
      const data = err.data as { organizationName?: string | null } | null;
      content = <Ended organizationName={data?.organizationName ?? null} />;
    } else {
      content = (
        <Result
          status="error"
          title={t('visit.failed')}
          extra={<Button onClick={() => void view.refetch()}>{t('visit.retry')}</Button>}
        />
      );
    }
  } else if (view.data.locked)
    content = (
      <PasswordForm
        code={code}
        version={view.data.version}
        organizationName={view.data.organizationName}
        onPassed={() => {
          void queryClient.removeQueries({ queryKey: shareKeys.visit(code) });
          setSigned((n) => n + 1);
        }}
      />
    );
  else content = <Shared view={view.data} />;
  return <Frame>{content}</Frame>;
}
