/**
 * 3D viewer of scans (upper, lower, bite …). Load it lazily (see index.ts: LazyModelViewer) so three.js stays out
 * of the start-up bundle. Fetching and decoding run in one worker, drawing in another (engine.ts, render.worker.ts).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { Button, Progress, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  BorderInnerOutlined,
  CameraOutlined,
  ColumnWidthOutlined,
  EditOutlined,
  ExpandOutlined,
  PictureOutlined,
  PushpinOutlined,
  SaveOutlined,
} from '@ant-design/icons';
import { ViewerEngine, type PickHit } from './engine';
import { distance, formatMillimetres, nextMeasurement } from './measure';
import { AnnotationsPanel } from './AnnotationsPanel';
import { MarginPanel, MARGIN_POINTS } from './MarginPanel';
import { SectionPanel } from './SectionPanel';
import { usePickClicks } from './usePickClicks';
import { overallProgress, serializeInit } from './fit';
import type { Vec3 } from './fit';
import type {
  ModelViewerModel,
  ModelViewerProps,
  Point3,
  ViewerJaw,
  ViewerPolyline,
  WorkerRequest,
  WorkerResponse,
} from './types';

/** Where a report's snapshot is taken from: the upper arch from below, the lower from above, the bite from the front. */
const VIEW_DIRECTIONS: Record<ViewerJaw, Vec3> = { upper: [0, -0.3, -1], lower: [0, -0.3, 1], bite: [0, -1, 0.3] };
const VIEWS: ViewerJaw[] = ['upper', 'lower', 'bite'];
/** The tools a click on the scans serves; one at a time. */
type Tool = 'measure' | 'section' | 'annotate' | 'margin';

/** A tool's button: pressed while its tool is open; a second press closes it. */
function ToolToggle(props: {
  tool: Tool;
  open: Tool | null;
  onChoose: (tool: Tool) => void;
  icon: ReactNode;
  testId: string;
  disabled: boolean;
  label: string;
}) {
  const pressed = props.open === props.tool;
  return (
    <Button
      size="small"
      icon={props.icon}
      data-testid={props.testId}
      type={pressed ? 'primary' : 'default'}
      aria-pressed={pressed}
      onClick={() => props.onChoose(props.tool)}
      disabled={props.disabled}
    >
      {props.label}
    </Button>
  );
}

type LoadState =
  | { status: 'loading'; loaded: number; total: number }
  | { status: 'ready'; triangles: number; source: 'compact' | 'original' }
  | { status: 'error'; message: string };

/** "scan-2026-11-24T10-30-00.png": a screenshot's file name, downloaded or saved into the case. */
const screenshotFileName = (prefix: string) =>
  `${prefix}-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}.png`;

const modelsKey = (models: ModelViewerModel[]) =>
  JSON.stringify(models.map((m) => [m.id, m.compactUrl ?? '', m.originalUrl, m.format, m.jaw ?? '']));

export default function ModelViewer({
  models,
  t,
  requestInit,
  height = 480,
  className,
  onError,
  screenshotName = 'scan',
  onSnapshot,
  onSaveScreenshot,
  annotations = [],
  onAnnotate,
  onDeleteAnnotation,
  marginLines = [],
  marginTeeth,
  onSaveMarginLine,
  onDeleteMarginLine,
}: ModelViewerProps) {
  const { t: tCheck, i18n } = useTranslation('systemCheck');
  const { t: tCommon } = useTranslation('common');
  const hostRef = useRef<HTMLDivElement>(null);
  // State (not a ref), so the loading effect runs once the engine exists, not once before and again after.
  const [viewer, setViewer] = useState<{ engine: ViewerEngine; decoder: Worker } | null>(null);
  const [states, setStates] = useState<Record<string, LoadState>>({});
  const [hidden, setHidden] = useState<Record<string, boolean>>({});
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  const key = modelsKey(models);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const stableModels = useMemo(() => models, [key]);
  const initKey = JSON.stringify(serializeInit(requestInit));

  // Controls and both workers live exactly as long as the component. The canvas is created here (not by React):
  // its control moves to the render worker for good, so a remount (StrictMode) needs a new one.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const canvas = document.createElement('canvas');
    canvas.dataset.testid = 'viewer-canvas';
    canvas.style.cssText = 'display:block;width:100%;height:100%;touch-action:none;outline:none';
    host.prepend(canvas);
    const fail = () => setStates({ __webgl: { status: 'error', message: 'WebGL unavailable' } });
    const decoder = new Worker(new URL('./decode.worker.ts', import.meta.url), { type: 'module' });
    let engine: ViewerEngine;
    try {
      engine = new ViewerEngine(canvas, host, decoder, fail);
    } catch {
      decoder.terminate();
      canvas.remove();
      fail();
      return;
    }
    setViewer({ engine, decoder });
    return () => {
      decoder.terminate();
      engine.dispose();
      setViewer(null);
      canvas.remove();
    };
  }, []);

  // (Re)load the models whenever their list or the request headers change.
  useEffect(() => {
    if (!viewer) return;
    const { engine, decoder } = viewer;
    const gen = engine.clear();
    const init = JSON.parse(initKey) as ReturnType<typeof serializeInit>;
    const byReq = new Map<number, ModelViewerModel>();
    let reqBase = Math.floor(Math.random() * 1e9);
    setStates(Object.fromEntries(stableModels.map((m) => [m.id, { status: 'loading', loaded: 0, total: 0 }])));
    const onMessage = (ev: MessageEvent<WorkerResponse>) => {
      const msg = ev.data;
      const model = byReq.get(msg.reqId);
      if (!model) return;
      if (msg.type === 'progress') {
        setStates((s) => ({ ...s, [model.id]: { status: 'loading', loaded: msg.loaded, total: msg.total } }));
      } else if (msg.type === 'done') {
        byReq.delete(msg.reqId);
        engine.meshLoaded(model.id, msg.bounds);
        setStates((s) => ({ ...s, [model.id]: { status: 'ready', triangles: msg.triangles, source: msg.source } }));
      } else {
        byReq.delete(msg.reqId);
        setStates((s) => ({ ...s, [model.id]: { status: 'error', message: msg.message } }));
        onErrorRef.current?.(model.id, msg.message);
      }
    };
    decoder.addEventListener('message', onMessage);
    for (const m of stableModels) {
      const reqId = ++reqBase;
      byReq.set(reqId, m);
      const req: WorkerRequest = {
        type: 'load',
        reqId,
        target: { id: m.id, jaw: m.jaw, gen },
        compactUrl: m.compactUrl,
        originalUrl: m.originalUrl,
        format: m.format,
        init,
      };
      decoder.postMessage(req);
    }
    return () => {
      decoder.removeEventListener('message', onMessage);
      for (const reqId of byReq.keys()) decoder.postMessage({ type: 'cancel', reqId } satisfies WorkerRequest);
    };
  }, [stableModels, initKey, viewer]);

  const engine = viewer?.engine;
  const toggle = useCallback(
    (id: string, visible: boolean) => {
      setHidden((h) => ({ ...h, [id]: !visible }));
      engine?.setVisible(id, visible);
    },
    [engine],
  );

  const fit = useCallback(() => engine?.fit(true), [engine]);

  // The tools: a click (not a drag, which still turns the model) on a scan marks a point for the open one.
  const [tool, setTool] = useState<Tool | null>(null);
  const measuring = tool === 'measure';
  const chooseTool = useCallback((next: Tool) => setTool((t) => (t === next ? null : next)), []);
  // Measure: two points give their distance.
  const [points, setPoints] = useState<Point3[]>([]);
  // Annotate: the point just clicked, waiting for its note; a chosen note's pin is highlighted.
  const [noteDraft, setNoteDraft] = useState<PickHit | null>(null);
  const [activeNote, setActiveNote] = useState<string | null>(null);
  // Margin line: the points clicked around the preparation, on one scan, for the chosen tooth.
  const [marginDraft, setMarginDraft] = useState<{ modelId: string; points: Point3[] } | null>(null);
  const [marginTooth, setMarginTooth] = useState<number | null>(null);
  useEffect(() => {
    setPoints([]);
    setNoteDraft(null);
    setMarginDraft(null);
  }, [tool]);
  useEffect(() => engine?.setMarks(measuring ? points : []), [engine, measuring, points]);
  usePickClicks(engine, hostRef.current, tool !== null && tool !== 'section', (hit) => {
    if (tool === 'measure') setPoints((p) => nextMeasurement(p, hit?.point ?? null));
    else if (tool === 'annotate' && hit?.modelId) setNoteDraft(hit);
    else if (tool === 'margin' && hit?.modelId)
      setMarginDraft((d) =>
        // A line lies on one scan: a click on another starts the line there.
        d && d.modelId === hit.modelId
          ? { ...d, points: [...d.points, hit.point].slice(0, MARGIN_POINTS.max) }
          : { modelId: hit.modelId!, points: [hit.point] },
      );
  });
  useEffect(() => {
    const pins = annotations.map((a) => ({
      modelId: a.modelId,
      point: a.point,
      label: String(a.number),
      active: a.id === activeNote,
    }));
    if (noteDraft?.modelId) pins.push({ modelId: noteDraft.modelId, point: noteDraft.point, label: '+', active: true });
    engine?.setPins(pins);
  }, [engine, annotations, noteDraft, activeNote]);
  useEffect(() => {
    const lines: ViewerPolyline[] = marginLines.map((l) => ({
      modelId: l.modelId,
      points: l.points,
      kind: 'saved',
      active: tool === 'margin' && l.tooth === marginTooth,
    }));
    if (marginDraft) lines.push({ ...marginDraft, kind: 'draft', active: true });
    engine?.setLines(lines);
  }, [engine, marginLines, marginDraft, marginTooth, tool]);
  useEffect(() => {
    if (marginTooth === null && marginTeeth?.length) setMarginTooth(marginTeeth[0]!.value);
  }, [marginTeeth, marginTooth]);
  const saveMargin = async () => {
    if (!onSaveMarginLine || !marginDraft || marginTooth === null) return;
    await onSaveMarginLine({ tooth: marginTooth, modelId: marginDraft.modelId, points: marginDraft.points });
    setMarginDraft(null);
  };

  const [view, setView] = useState<ViewerJaw>('bite');
  const [capturing, setCapturing] = useState(false);
  const chooseView = useCallback(
    (v: ViewerJaw) => {
      setView(v);
      // A jaw's view shows that jaw's scans (and scans of no jaw); the bite shows them all.
      for (const m of models) toggle(m.id, v === 'bite' || !m.jaw || m.jaw === v);
      engine?.lookFrom(VIEW_DIRECTIONS[v]);
    },
    [engine, models, toggle],
  );
  const snapshot = useCallback(async () => {
    if (!engine || !onSnapshot) return;
    setCapturing(true);
    try {
      const blob = await engine.screenshot();
      if (blob) await onSnapshot(blob, view);
    } finally {
      setCapturing(false);
    }
  }, [engine, onSnapshot, view]);

  const screenshot = useCallback(async () => {
    const blob = await engine?.screenshot();
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = screenshotFileName(screenshotName);
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }, [engine, screenshotName]);

  const [saving, setSaving] = useState(false);
  const saveScreenshot = useCallback(async () => {
    if (!engine || !onSaveScreenshot) return;
    setSaving(true);
    try {
      const blob = await engine.screenshot();
      if (blob) await onSaveScreenshot(new File([blob], screenshotFileName(screenshotName), { type: 'image/png' }));
    } finally {
      setSaving(false);
    }
  }, [engine, onSaveScreenshot, screenshotName]);

  const list = Object.entries(states);
  const loading = list.filter(([, s]) => s.status === 'loading');
  const failed = list.filter(([, s]) => s.status === 'error');
  const anyReady = list.some(([, s]) => s.status === 'ready');
  // Distances are read in millimetres: the compact versions are made in millimetres, an original is in its own unit.
  const inMillimetres = anyReady && list.every(([, s]) => s.status !== 'ready' || s.source === 'compact');
  const percent = overallProgress(
    list.map(([, s]) =>
      s.status === 'loading' ? { loaded: s.loaded, total: s.total, done: false } : { loaded: 0, total: 0, done: true },
    ),
  );

  const box: CSSProperties = {
    position: 'relative',
    width: '100%',
    height,
    overflow: 'hidden',
    borderRadius: 8,
    background: '#f3f4f6',
  };
  const hint: CSSProperties = {
    position: 'absolute',
    top: 8,
    insetInlineStart: 8,
    padding: '2px 8px',
    borderRadius: 4,
    background: 'rgba(255,255,255,0.9)',
    color: '#1f1f1f',
    pointerEvents: 'none',
  };
  const overlay: CSSProperties = {
    position: 'absolute',
    inset: 0,
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: 8,
    pointerEvents: 'none',
  };

  return (
    <div className={className} data-testid="model-viewer" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 12 }}>
        <span style={{ fontWeight: 500 }}>{t('viewer.show')}:</span>
        {models.map((m) => {
          const s = states[m.id];
          return (
            <label
              key={m.id}
              style={{
                display: 'inline-flex',
                alignItems: 'center',
                gap: 4,
                cursor: 'pointer',
                color: s?.status === 'error' ? '#cf1322' : undefined,
              }}
            >
              <input
                type="checkbox"
                data-testid={`viewer-toggle-${m.id}`}
                checked={!hidden[m.id]}
                onChange={(e) => toggle(m.id, e.target.checked)}
              />
              {m.label}
            </label>
          );
        })}
        <span style={{ flex: 1 }} />
        <Button
          size="small"
          icon={<ExpandOutlined aria-hidden />}
          data-testid="viewer-fit"
          onClick={fit}
          disabled={!anyReady}
        >
          {t('viewer.fit')}
        </Button>
        <ToolToggle
          tool="measure"
          open={tool}
          onChoose={chooseTool}
          icon={<ColumnWidthOutlined aria-hidden />}
          testId="viewer-measure"
          disabled={!inMillimetres}
          label={t('viewer.measure')}
        />
        <ToolToggle
          tool="section"
          open={tool}
          onChoose={chooseTool}
          icon={<BorderInnerOutlined aria-hidden />}
          testId="viewer-section-tool"
          disabled={!anyReady}
          label={tCommon('viewer.section')}
        />
        {onAnnotate ? (
          <ToolToggle
            tool="annotate"
            open={tool}
            onChoose={chooseTool}
            icon={<PushpinOutlined aria-hidden />}
            testId="viewer-annotate"
            disabled={!inMillimetres}
            label={tCommon('viewer.annotate')}
          />
        ) : null}
        {onSaveMarginLine && marginTeeth?.length ? (
          <ToolToggle
            tool="margin"
            open={tool}
            onChoose={chooseTool}
            icon={<EditOutlined aria-hidden />}
            testId="viewer-margin-tool"
            disabled={!inMillimetres}
            label={tCommon('viewer.margin')}
          />
        ) : null}
        {onSnapshot ? (
          <>
            <Segmented
              size="small"
              aria-label={t('viewer.view')}
              data-testid="viewer-view"
              value={view}
              onChange={(v) => chooseView(v)}
              options={VIEWS.map((v) => ({ value: v, label: t(`viewer.${v}`) }))}
            />
            <Button
              size="small"
              type="primary"
              icon={<PictureOutlined aria-hidden />}
              data-testid="viewer-snapshot"
              loading={capturing}
              onClick={() => void snapshot()}
              disabled={!anyReady}
            >
              {t('viewer.snapshot')}
            </Button>
          </>
        ) : null}
        <Button
          size="small"
          icon={<CameraOutlined aria-hidden />}
          data-testid="viewer-screenshot"
          onClick={() => void screenshot()}
          disabled={!anyReady}
        >
          {t('viewer.screenshot')}
        </Button>
        {onSaveScreenshot ? (
          <Button
            size="small"
            icon={<SaveOutlined aria-hidden />}
            data-testid="viewer-save-screenshot"
            loading={saving}
            onClick={() => void saveScreenshot()}
            disabled={!anyReady}
          >
            {t('viewer.saveToCase')}
          </Button>
        ) : null}
      </div>
      <div ref={hostRef} style={{ ...box, cursor: tool && tool !== 'section' ? 'crosshair' : undefined }}>
        {tool === 'annotate' || (tool === 'margin' && !marginDraft) ? (
          <div style={hint} role="status" data-testid="viewer-tool-hint">
            {tool === 'annotate' ? tCommon('viewer.annotateHint') : tCommon('viewer.marginHint')}
          </div>
        ) : null}
        {measuring ? (
          <div
            style={{
              position: 'absolute',
              top: 8,
              insetInlineStart: 8,
              padding: '2px 8px',
              borderRadius: 4,
              background: 'rgba(255,255,255,0.9)',
              color: '#1f1f1f',
              pointerEvents: 'none',
            }}
            data-testid="viewer-measurement"
            role="status"
          >
            {points.length === 2 ? (
              <span data-testid="viewer-distance" data-mm={distance(points[0]!, points[1]!).toFixed(3)}>
                {t('viewer.distance')}:{' '}
                <strong>{formatMillimetres(distance(points[0]!, points[1]!), i18n.language)}</strong>
              </span>
            ) : (
              t('viewer.measureHint')
            )}
          </div>
        ) : null}
        {loading.length > 0 && (
          <div style={overlay} data-testid="viewer-loading" role="progressbar" aria-valuenow={percent} aria-busy="true">
            <span>{t('viewer.loading')}</span>
            <Progress percent={percent} size="small" style={{ width: 200 }} />
          </div>
        )}
        {failed.length > 0 && loading.length === 0 && (
          <div
            style={{ ...overlay, justifyContent: anyReady ? 'flex-end' : 'center', paddingBottom: anyReady ? 12 : 0 }}
            data-testid="viewer-error"
            role="alert"
          >
            <span
              style={{ color: '#cf1322', background: 'rgba(255,255,255,0.85)', padding: '4px 10px', borderRadius: 4 }}
            >
              {t('viewer.failed')} {/* Whether this browser can show 3D at all: the system check tells. */}
              <a href="/system-check" target="_blank" rel="noopener" data-testid="viewer-system-check">
                {tCheck('viewerLink')}
              </a>
            </span>
          </div>
        )}
      </div>
      {tool === 'section' && engine ? <SectionPanel engine={engine} /> : null}
      {annotations.length > 0 || noteDraft ? (
        <AnnotationsPanel
          annotations={annotations}
          draft={noteDraft}
          onCancelDraft={() => setNoteDraft(null)}
          onAnnotate={onAnnotate}
          onDelete={onDeleteAnnotation}
          active={activeNote}
          onActivate={setActiveNote}
        />
      ) : null}
      {marginLines.length > 0 || tool === 'margin' ? (
        <MarginPanel
          lines={marginLines}
          teeth={marginTeeth}
          tooth={marginTooth}
          onTooth={setMarginTooth}
          draft={tool === 'margin' ? (marginDraft ?? { modelId: '', points: [] }) : null}
          onUndo={() =>
            setMarginDraft((d) => (d && d.points.length > 1 ? { ...d, points: d.points.slice(0, -1) } : null))
          }
          onClear={() => setMarginDraft(null)}
          onSave={saveMargin}
          onDelete={onDeleteMarginLine}
        />
      ) : null}
    </div>
  );
}
