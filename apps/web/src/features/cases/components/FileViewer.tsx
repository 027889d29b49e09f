import { useState } from 'react';
import { Alert, Modal, Spin } from 'antd';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { downloadGrant } from '../api/downloadGrant';
import { caseKeys } from '../api/keys';
import type { CaseFile } from '../api/types';
import { LazyModelViewer, type ViewerModel } from './ModelViewerLazy';
import type { ViewerTools } from '../../../components/ModelViewer';
import { serverLink } from '../../../lib/download';

function grantQuery(fileCode: string) {
  return {
    queryKey: caseKeys.grant(fileCode),
    queryFn: () => downloadGrant(fileCode),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  };
}

/** A file of a case is shown when it is fully uploaded and its kind has a viewer (a3d is download-only). */
export function isViewable(f: CaseFile): boolean {
  if (f.uploadTag === 'uploading' || f.uploadTag === 'uploadFail') return false;
  if (f.kind === 'model') return f.format !== 'a3d';
  if (f.kind === 'document') return f.format === 'pdf';
  return true;
}

function InvalidLink() {
  const { t } = useTranslation('cases');
  return <Alert type="warning" showIcon title={t('file.invalidLink')} data-testid="file-invalid-link" />;
}

function SingleMedia({ file, url }: { file: CaseFile; url: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <InvalidLink />;
  const common = { 'data-testid': `file-view-${file.fileCode}`, onError: () => setBroken(true) };
  switch (file.kind) {
    case 'image':
      return (
        <img
          src={url}
          alt={file.name}
          style={{ maxWidth: '100%', maxHeight: '70vh', display: 'block', margin: '0 auto' }}
          {...common}
        />
      );
    case 'video':
      // Recordings made at the chair (intraoral camera, a patient's voice note) come without captions to offer.
      // eslint-disable-next-line jsx-a11y/media-has-caption
      return <video src={url} controls style={{ width: '100%', maxHeight: '70vh' }} {...common} />;
    case 'audio':
      // eslint-disable-next-line jsx-a11y/media-has-caption
      return <audio src={url} controls style={{ width: '100%' }} {...common} />;
    case 'document':
      return (
        <iframe
          src={url}
          title={file.name}
          style={{ width: '100%', height: '70vh', border: 0 }}
          data-testid={`file-view-${file.fileCode}`}
        />
      );
    default:
      return null;
  }
}

/** Shows one non-model file, or one or more models together in the 3D viewer. */
export function FileViewer({
  files,
  tools,
}: {
  files: CaseFile[];
  /** What the page offers in the 3D viewer (save to case, notes, margin lines). */
  tools?: ViewerTools;
}) {
  const { t } = useTranslation('cases');
  const { t: tc } = useTranslation('common');
  const grants = useQueries({ queries: files.map((f) => grantQuery(f.fileCode)) });
  if (files.length === 0) return null;
  if (grants.some((g) => g.isPending)) return <Spin data-testid="file-viewer-loading" />;
  const models = files.filter((f) => f.kind === 'model');

  if (models.length > 0) {
    const list: ViewerModel[] = [];
    files.forEach((f, i) => {
      const g = grants[i]?.data;
      if (f.kind !== 'model' || !g || f.format === 'a3d') return;
      list.push({
        id: f.fileCode,
        label: f.name,
        jaw: f.jaw ?? undefined,
        compactUrl: g.viewerUrl ? serverLink(g.viewerUrl) : undefined,
        originalUrl: serverLink(g.url),
        format: f.format as ViewerModel['format'],
      });
    });
    if (list.length === 0) return <InvalidLink />;
    return (
      <div data-testid="model-viewer-host">
        {models.some((m) => m.viewerStatus === 'pending') ? (
          <Alert type="info" showIcon title={t('file.calculating')} style={{ marginBottom: 8 }} />
        ) : null}
        {models.some((m) => m.viewerStatus === 'failed' && m.unit !== 'unknown') ? (
          <Alert type="warning" showIcon title={t('file.processingFailed')} style={{ marginBottom: 8 }} />
        ) : null}
        {models.some((m) => m.viewerStatus === 'failed' && m.unit === 'unknown') ? (
          <Alert
            type="warning"
            showIcon
            title={t('file.unitUnknown')}
            style={{ marginBottom: 8 }}
            data-testid="viewer-unit-unknown"
          />
        ) : null}
        {/* The canvas takes what the dialog leaves below its title and the viewer's toolbar. */}
        <LazyModelViewer
          models={list}
          t={(key) => tc(key)}
          height="min(65vh, calc(100vh - 240px))"
          failedText={t('file.modelLoadFailed')}
          {...tools}
        />
      </div>
    );
  }
  const file = files[0]!;
  const grant = grants[0]?.data;
  if (!grant) return <InvalidLink />;
  return <SingleMedia file={file} url={serverLink(grant.url)} />;
}

/** The viewer in a dialog: one file under its name, several models together. */
export function FileViewerModal({
  files,
  onClose,
  allModelsTitle,
  testId,
  tools,
}: {
  files: CaseFile[] | null;
  onClose: () => void;
  allModelsTitle: string;
  testId: string;
  tools?: ViewerTools;
}) {
  return (
    <Modal
      open={files !== null}
      title={files?.length === 1 ? files[0]!.name : allModelsTitle}
      footer={null}
      width="min(1100px, 95vw)"
      onCancel={onClose}
      destroyOnHidden
    >
      <div data-testid={testId}>
        {files ? <FileViewer key={files.map((f) => f.fileCode).join(',')} files={files} tools={tools} /> : null}
      </div>
    </Modal>
  );
}
