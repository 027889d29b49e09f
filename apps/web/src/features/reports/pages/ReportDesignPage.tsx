import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Empty,
  Input,
  Popconfirm,
  Radio,
  Result,
  Select,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import ArrowLeftOutlined from '@ant-design/icons/ArrowLeftOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import EyeOutlined from '@ant-design/icons/EyeOutlined';
import FilePdfOutlined from '@ant-design/icons/FilePdfOutlined';
import SendOutlined from '@ant-design/icons/SendOutlined';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  DIAGNOSIS_CATEGORIES,
  DIAGNOSIS_COLORS,
  LANGUAGES,
  LANGUAGE_NAMES,
  REPORT_LIMITS,
  RISK_AREAS,
  RISK_LEVELS,
  normalizeToothNumbering,
  toothLabel,
  type DiagnosisCategory,
  type ReportContent,
  type ReportDetail,
  type RiskLevel,
  type SnapshotView,
} from '@portal/contracts';
import { useAccess } from '../../../components/Access';
import { LazyModelViewer, type ModelViewerModel } from '../../../components/ModelViewer';
import { serverLink } from '../../../lib/download';
import { ApiError } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useTheme } from '../../../lib/theme';
import { caseDetailPath, downloadGrant } from '../../cases';
import { SharesCard } from '../../shares';
import { reportKeys } from '../api/keys';
import { addSnapshot, deleteSnapshot, publishReport, reportCase, reportDetail, saveReport } from '../api/reports';
import { useReportChanged, useReportListsChanged } from '../api/useReportMutations';
import { ReportImage } from '../components/ReportImage';
import { ToothFindingsChart } from '../components/ToothFindingsChart';
import { downloadReportPdf } from '../lib/pdf';
import { reportPreviewPath } from '../lib/paths';
import { searchable } from '../../../lib/selectSearch';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['reports'];

/** Drafts are saved this long after the last change. */
const AUTOSAVE_MS = 800;
const PICTURES = new Set(['jpg', 'jpeg', 'png']);

type SaveState = { status: 'saved' | 'saving' | 'pending' } | { status: 'failed'; field: string | null };

/** Saves the draft a moment after each change, one save at a time; `flush` saves what is pending now. */
function useAutosave(reportCode: string) {
  const [state, setState] = useState<SaveState>({ status: 'saved' });
  const pending = useRef<ReportContent | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const running = useRef<Promise<void> | null>(null);
  const listsChanged = useReportListsChanged();

  const flush = useCallback(async (): Promise<boolean> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    await running.current;
    const content = pending.current;
    if (!content) return true;
    pending.current = null;
    setState({ status: 'saving' });
    let ok = true;
    running.current = saveReport(reportCode, content).then(
      () => {
        if (!pending.current) setState({ status: 'saved' });
        listsChanged();
      },
      (err: unknown) => {
        ok = false;
        const field = err instanceof ApiError ? ((err.data as { field?: string } | null)?.field ?? null) : null;
        setState({ status: 'failed', field });
      },
    );
    await running.current;
    running.current = null;
    return ok;
  }, [listsChanged, reportCode]);

  const change = useCallback(
    (content: ReportContent) => {
      pending.current = content;
      setState({ status: 'pending' });
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), AUTOSAVE_MS);
    },
    [flush],
  );
  // Leaving the page saves what was typed last.
  useEffect(() => () => void flush(), [flush]);
  return { state, change, flush };
}

export default function ReportDesignPage() {
  const { t } = useTranslation('reports');
  const can = useAccess();
  const [params] = useSearchParams();
  const reportCode = params.get('report') ?? '';
  const detail = useQuery({
    queryKey: reportKeys.detail(reportCode),
    queryFn: () => reportDetail(reportCode),
    enabled: reportCode !== '',
    retry: false,
  });
  if (!can('report:edit')) return <Result status="403" title={t('common:noPermission')} />;
  if (!reportCode || detail.isError)
    return (
      <Result
        status="404"
        title={t('design.missing')}
        extra={
          <Link to="/case-management">
            <Button>{t('design.toCases')}</Button>
          </Link>
        }
      />
    );
  if (!detail.data) return <Spin style={{ display: 'block', margin: '96px auto' }} />;
  return <Designer report={detail.data} />;
}

function Designer({ report }: { report: ReportDetail }) {
  const { t } = useTranslation('reports');
  const { t: tc, i18n } = useTranslation('common');
  const navigate = useNavigate();
  const changed = useReportChanged(report.reportCode);
  const { user } = useSession();
  const { effective } = useTheme();
  const system = normalizeToothNumbering(user?.toothNumberingSystem);
  const [content, setContent] = useState<ReportContent>(() => ({ ...report.content, numbering: system }));
  const [newCategory, setNewCategory] = useState<DiagnosisCategory>('early_caries');
  const [busy, setBusy] = useState<'publish' | 'pdf' | null>(null);
  const { state, change, flush } = useAutosave(report.reportCode);
  const reportCode = report.reportCode;

  const update = (patch: Partial<ReportContent>) => {
    setContent((c) => {
      const next = { ...c, ...patch };
      change(next);
      return next;
    });
  };

  const caseQuery = useQuery({
    queryKey: reportKeys.case(report.caseCode),
    queryFn: () => reportCase(report.caseCode),
  });
  const files = caseQuery.data?.files ?? [];
  const scans = files.filter((f) => f.kind === 'model' && f.format !== 'a3d' && f.uploadTag === 'finished');
  const pictures = files.filter((f) => f.kind === 'image' && PICTURES.has(f.format));
  const shownScans = scans.filter((f) => content.scans.includes(f.fileCode));
  const grants = useQueries({
    queries: shownScans.map((f) => ({
      queryKey: reportKeys.grant(f.fileCode),
      queryFn: () => downloadGrant(f.fileCode),
      staleTime: Infinity,
      retry: false,
    })),
  });
  const models: ModelViewerModel[] = useMemo(
    () =>
      shownScans.flatMap((f, i) => {
        const g = grants[i]?.data;
        if (!g) return [];
        return [
          {
            id: f.fileCode,
            label: f.name,
            jaw: f.jaw ?? undefined,
            compactUrl: g.viewerUrl ? serverLink(g.viewerUrl) : undefined,
            originalUrl: serverLink(g.url),
            format: f.format as ModelViewerModel['format'],
          },
        ];
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [shownScans.map((f) => f.fileCode).join(), grants.map((g) => g.dataUpdatedAt).join()],
  );

  const snapshotShown = (code: string) => content.images.some((i) => i.source === 'snapshot' && i.code === code);
  const pictureShown = (code: string) => content.images.some((i) => i.source === 'file' && i.code === code);
  const toggleImage = (source: 'file' | 'snapshot', code: string, on: boolean) =>
    update({
      images: on
        ? [...content.images, { source, code }].slice(0, REPORT_LIMITS.images)
        : content.images.filter((i) => !(i.source === source && i.code === code)),
    });

  const takeSnapshot = async (png: Blob, view: SnapshotView) => {
    try {
      const shot = await addSnapshot(reportCode, view, png);
      await changed.snapshots();
      setContent((c) => {
        const next = {
          ...c,
          images: [...c.images, { source: 'snapshot' as const, code: shot.code }].slice(0, REPORT_LIMITS.images),
        };
        change(next);
        return next;
      });
      notify.success(t('scans.taken'));
    } catch {
      /* reported by the http client */
    }
  };

  const pickTooth = (tooth: number) => {
    if (content.findings.some((f) => f.tooth === tooth && f.category === newCategory)) return;
    if (content.findings.length >= REPORT_LIMITS.findings) return;
    update({ findings: [...content.findings, { tooth, category: newCategory, note: '' }] });
  };

  const publish = async () => {
    setBusy('publish');
    try {
      if (!(await flush())) return;
      const published = await publishReport(reportCode);
      changed.published(published);
      notify.success(t('design.published', { version: published.version }));
    } catch (err) {
      const field = err instanceof ApiError ? (err.data as { field?: string } | null)?.field : undefined;
      notify.error(
        field === 'content.summary' ? t('design.publishNeedsSummary') : err instanceof Error ? err.message : '',
      );
    } finally {
      setBusy(null);
    }
  };

  const fieldError = state.status === 'failed' ? state.field : null;
  const statusText =
    state.status === 'saved'
      ? t('design.saved')
      : state.status === 'failed'
        ? t('design.saveFailed')
        : t('design.saving');

  return (
    <main style={{ maxWidth: 1100, margin: '0 auto', padding: 16, display: 'grid', gap: 16 }}>
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Space wrap>
          <Link to={caseDetailPath(report.caseCode)}>
            <Button icon={<ArrowLeftOutlined aria-hidden />}>{t('design.back')}</Button>
          </Link>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t('design.title')}
          </Typography.Title>
          {report.version ? (
            <Tag color="green">{t('status.published', { version: report.version })}</Tag>
          ) : (
            <Tag>{t('status.draft')}</Tag>
          )}
          <Typography.Text
            type={state.status === 'failed' ? 'danger' : 'secondary'}
            data-testid="report-save-state"
            data-state={state.status}
            role="status"
          >
            {statusText}
          </Typography.Text>
        </Space>
        <Space wrap>
          <Button
            icon={<EyeOutlined aria-hidden />}
            data-testid="report-preview"
            onClick={() => void flush().then((ok) => ok && navigate(reportPreviewPath(reportCode)))}
          >
            {t('preview')}
          </Button>
          <Button
            icon={<FilePdfOutlined aria-hidden />}
            loading={busy === 'pdf'}
            onClick={() => {
              setBusy('pdf');
              void flush()
                .then((ok) => (ok ? downloadReportPdf(reportCode) : undefined))
                .catch(() => undefined)
                .finally(() => setBusy(null));
            }}
          >
            {t('pdf')}
          </Button>
          <Button
            type="primary"
            icon={<SendOutlined aria-hidden />}
            loading={busy === 'publish'}
            data-testid="report-publish"
            onClick={() => void publish()}
          >
            {t('design.publish')}
          </Button>
        </Space>
      </Space>

      <Card size="small">
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(240px, 1fr))', gap: 12 }}>
          <label>
            <div>{t('design.titleLabel')}</div>
            <Input
              data-testid="report-title-input"
              value={content.title}
              maxLength={REPORT_LIMITS.title}
              placeholder={t('untitled')}
              onChange={(e) => update({ title: e.target.value })}
            />
          </label>
          <label>
            <div>{t('design.language')}</div>
            <Select
              {...searchable}
              data-testid="report-language"
              style={{ width: '100%' }}
              value={content.language}
              aria-label={t('design.language')}
              options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
              onChange={(language) => update({ language })}
            />
          </label>
        </div>
      </Card>

      <Card size="small" title={t('scans.title')} data-testid="report-scans">
        {scans.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('scans.none')} />
        ) : (
          <>
            <div style={{ marginBottom: 8 }}>{t('scans.pick')}</div>
            <Space wrap style={{ marginBottom: 12 }}>
              {scans.map((f) => (
                <Checkbox
                  key={f.fileCode}
                  data-testid={`report-scan-${f.fileCode}`}
                  checked={content.scans.includes(f.fileCode)}
                  onChange={(e) =>
                    update({
                      scans: e.target.checked
                        ? [...content.scans, f.fileCode]
                        : content.scans.filter((c) => c !== f.fileCode),
                    })
                  }
                >
                  {f.name}
                </Checkbox>
              ))}
            </Space>
            {models.length ? (
              <Suspense fallback={<Spin />}>
                <LazyModelViewer
                  models={models}
                  height={360}
                  t={(key) => (i18n.exists(`reports:${key}`) ? t(key) : tc(key))}
                  onSnapshot={takeSnapshot}
                  screenshotName="report"
                />
              </Suspense>
            ) : null}
          </>
        )}
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          {t('scans.snapshots')}
        </Typography.Title>
        {report.snapshots.length === 0 ? (
          <Typography.Text type="secondary">{t('scans.noSnapshots')}</Typography.Text>
        ) : (
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))', gap: 12 }}>
            {report.snapshots.map((s) => (
              <div key={s.code} data-testid={`report-snapshot-${s.code}`}>
                <ReportImage
                  reportCode={reportCode}
                  source="snapshot"
                  code={s.code}
                  alt={t(`viewer.${s.view}`)}
                  height={110}
                />
                <Space size={4} wrap style={{ marginTop: 4 }}>
                  <Checkbox
                    checked={snapshotShown(s.code)}
                    onChange={(e) => toggleImage('snapshot', s.code, e.target.checked)}
                  >
                    {t(`viewer.${s.view}`)}
                  </Checkbox>
                  <Popconfirm
                    title={t('scans.deleteSnapshot')}
                    onConfirm={async () => {
                      await deleteSnapshot(reportCode, s.code);
                      setContent((c) => ({ ...c, images: c.images.filter((i) => i.code !== s.code) }));
                      await changed.snapshots();
                    }}
                  >
                    <Button
                      size="small"
                      type="text"
                      danger
                      icon={<DeleteOutlined aria-hidden />}
                      aria-label={t('scans.deleteSnapshot')}
                    />
                  </Popconfirm>
                </Space>
              </div>
            ))}
          </div>
        )}
      </Card>

      <Card size="small" title={t('pictures.title')}>
        {pictures.length === 0 ? (
          <Typography.Text type="secondary">{t('pictures.none')}</Typography.Text>
        ) : (
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))', gap: 12 }}>
            {pictures.map((f) => (
              <Checkbox
                key={f.fileCode}
                data-testid={`report-picture-${f.fileCode}`}
                checked={pictureShown(f.fileCode)}
                onChange={(e) => toggleImage('file', f.fileCode, e.target.checked)}
              >
                <span style={{ overflowWrap: 'anywhere' }}>{f.name}</span>
              </Checkbox>
            ))}
          </div>
        )}
      </Card>

      <Card size="small" title={t('findings.title')}>
        <Space wrap style={{ marginBottom: 8 }}>
          <span>{t('findings.newCategory')}</span>
          <Select
            aria-label={t('findings.newCategory')}
            data-testid="report-new-category"
            value={newCategory}
            style={{ minWidth: 200 }}
            onChange={setNewCategory}
            options={DIAGNOSIS_CATEGORIES.map((c) => ({
              value: c,
              label: <CategoryLabel category={c} dark={effective === 'dark'} />,
            }))}
          />
          <Typography.Text type="secondary">{t('findings.hint')}</Typography.Text>
        </Space>
        <ToothFindingsChart findings={content.findings} system={system} onPick={pickTooth} />
        {content.findings.length === 0 ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {t('findings.none')}
          </Typography.Paragraph>
        ) : (
          <div style={{ display: 'grid', gap: 8, marginTop: 12 }}>
            {content.findings.map((f, i) => (
              <div
                key={`${f.tooth}-${i}`}
                data-testid={`report-finding-row-${f.tooth}`}
                style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center' }}
              >
                <strong>{t('findings.tooth', { tooth: toothLabel(f.tooth, system) })}</strong>
                <Select
                  style={{ flex: '1 1 160px', maxWidth: 240 }}
                  aria-label={t('findings.category')}
                  status={fieldError === `content.findings.${i}.tooth` ? 'error' : undefined}
                  value={f.category}
                  onChange={(category) =>
                    update({ findings: content.findings.map((x, j) => (j === i ? { ...x, category } : x)) })
                  }
                  options={DIAGNOSIS_CATEGORIES.map((c) => ({
                    value: c,
                    label: <CategoryLabel category={c} dark={effective === 'dark'} />,
                  }))}
                />
                <Input
                  style={{ flex: '3 1 200px' }}
                  aria-label={t('findings.note')}
                  placeholder={t('findings.note')}
                  data-testid={`report-finding-note-${f.tooth}`}
                  value={f.note}
                  maxLength={REPORT_LIMITS.note}
                  onChange={(e) =>
                    update({ findings: content.findings.map((x, j) => (j === i ? { ...x, note: e.target.value } : x)) })
                  }
                />
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined aria-hidden />}
                  aria-label={t('findings.remove')}
                  onClick={() => update({ findings: content.findings.filter((_, j) => j !== i) })}
                />
              </div>
            ))}
          </div>
        )}
      </Card>

      <Card size="small" title={t('risks.title')}>
        <div style={{ display: 'grid', gap: 12 }}>
          {RISK_AREAS.map((area) => {
            const risk = content.risks[area];
            const setRisk = (patch: Partial<typeof risk>) =>
              update({ risks: { ...content.risks, [area]: { ...risk, ...patch } } });
            return (
              <div key={area} data-testid={`report-risk-${area}`} style={{ display: 'grid', gap: 4 }}>
                <Space wrap>
                  <strong id={`risk-${area}`}>{t(`risks.${area}`)}</strong>
                  <Radio.Group
                    aria-labelledby={`risk-${area}`}
                    optionType="button"
                    size="small"
                    value={risk.level}
                    onChange={(e) => setRisk({ level: e.target.value as RiskLevel })}
                    options={RISK_LEVELS.map((l) => ({ value: l, label: t(`risks.${l}`) }))}
                  />
                  {risk.level ? (
                    <Button size="small" type="link" onClick={() => setRisk({ level: null })}>
                      {t('risks.clear')}
                    </Button>
                  ) : null}
                </Space>
                <Input
                  aria-label={`${t(`risks.${area}`)}: ${t('risks.reason')}`}
                  placeholder={t('risks.reason')}
                  value={risk.reason}
                  maxLength={REPORT_LIMITS.reason}
                  onChange={(e) => setRisk({ reason: e.target.value })}
                />
              </div>
            );
          })}
        </div>
      </Card>

      <Card size="small">
        <div style={{ display: 'grid', gap: 12 }}>
          <label>
            <div>{t('recommendations')}</div>
            <Input.TextArea
              rows={3}
              value={content.recommendations}
              maxLength={REPORT_LIMITS.recommendations}
              onChange={(e) => update({ recommendations: e.target.value })}
            />
          </label>
          <label style={{ maxWidth: 240 }}>
            <div>{t('nextVisit')}</div>
            <Input
              type="date"
              data-testid="report-next-visit"
              value={content.nextVisit ?? ''}
              status={fieldError === 'content.nextVisit' ? 'error' : undefined}
              onChange={(e) => update({ nextVisit: e.target.value || null })}
            />
          </label>
          <label>
            <div>{t('summary')}</div>
            <Input.TextArea
              rows={4}
              data-testid="report-summary-input"
              value={content.summary}
              maxLength={REPORT_LIMITS.summary}
              status={fieldError === 'content.summary' ? 'error' : undefined}
              onChange={(e) => update({ summary: e.target.value })}
            />
            <Typography.Text type="secondary">{t('summaryHint')}</Typography.Text>
          </label>
        </div>
      </Card>
      {state.status === 'failed' ? <Alert type="error" showIcon title={t('design.saveFailed')} /> : null}
      <SharesCard
        resourceType="report"
        resourceCode={reportCode}
        notShareableReason={report.version ? undefined : t('design.publishToShare')}
      />
    </main>
  );
}

function CategoryLabel({ category, dark }: { category: DiagnosisCategory; dark: boolean }) {
  const { t } = useTranslation('reports');
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
      <span
        aria-hidden
        style={{
          width: 10,
          height: 10,
          borderRadius: 5,
          background: DIAGNOSIS_COLORS[category][dark ? 'dark' : 'light'],
        }}
      />
      {t(`categories.${category}`)}
    </span>
  );
}
