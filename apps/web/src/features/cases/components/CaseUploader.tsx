import { useEffect, useRef, useState, type DragEvent } from 'react';
import { Button, Progress, Select, Space, Tag, Typography } from 'antd';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import CloseOutlined from '@ant-design/icons/CloseOutlined';
import { useTranslation } from 'react-i18next';
import type { Upload } from 'tus-js-client';
import { JAWS } from '@portal/contracts';
import { useCaseFilesChanged } from '../api/useCaseMutations';
import { VoiceMemoRecorder } from './VoiceMemoRecorder';
import { ACCEPT_ATTR, formatOfName, isModelName, type UploadFailure } from '../lib/upload';
import { caseUpload } from '../lib/caseUpload';
import { sizeText } from '../../../lib/sizes';

type Tag = 'uploading' | 'uploaded' | 'uploadFail';
interface Item {
  id: string;
  name: string;
  size: number;
  percent: number;
  tag: Tag;
  failure?: UploadFailure;
  upload?: Upload;
}

const TAG_COLORS: Record<Tag, string> = { uploading: 'processing', uploaded: 'success', uploadFail: 'error' };

/** Resumable uploads (tus) of several files into a case, one progress bar each. */
export function CaseUploader({ caseCode }: { caseCode: string }) {
  const { t } = useTranslation('cases');
  const [items, setItems] = useState<Item[]>([]);
  const [jaw, setJaw] = useState<string>('');
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const uploads = useRef(new Set<Upload>());

  // Leaving the page stops running uploads (they resume from the server offset next time).
  useEffect(() => {
    const set = uploads.current;
    return () => set.forEach((u) => void u.abort());
  }, []);

  const patch = (id: string, p: Partial<Item>) =>
    setItems((list) => list.map((i) => (i.id === id ? { ...i, ...p } : i)));

  // A finished upload moves the case's status and file count (its pages, its orders' files, the dashboard).
  const refresh = useCaseFilesChanged();

  const start = (files: File[]) => {
    const added: Item[] = [];
    for (const file of files) {
      const id = `${file.name}:${file.size}:${Math.random().toString(16).slice(2, 10)}`;
      if (!formatOfName(file.name)) {
        added.push({
          id,
          name: file.name,
          size: file.size,
          percent: 0,
          tag: 'uploadFail',
          failure: { key: 'upload.error.format' },
        });
        continue;
      }
      const upload: Upload = caseUpload(caseCode, file, jaw && isModelName(file.name) ? jaw : null, {
        onProgress: (sent, total) => patch(id, { percent: total > 0 ? Math.floor((sent / total) * 100) : 0 }),
        onSuccess: () => {
          uploads.current.delete(upload);
          patch(id, { percent: 100, tag: 'uploaded', upload: undefined });
          refresh();
        },
        onError: (failure) => {
          uploads.current.delete(upload);
          patch(id, { tag: 'uploadFail', failure, upload: undefined });
          refresh();
        },
      });
      uploads.current.add(upload);
      added.push({ id, name: file.name, size: file.size, percent: 0, tag: 'uploading', upload });
      upload.start();
    }
    setItems((list) => [...added, ...list]);
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    start(Array.from(e.dataTransfer.files));
  };

  return (
    <div data-testid="case-upload">
      <Space wrap style={{ marginBottom: 12 }}>
        <span>{t('upload.jaw')}</span>
        <Select
          data-testid="case-upload-jaw"
          style={{ minWidth: 160 }}
          value={jaw}
          onChange={setJaw}
          options={[{ value: '', label: t('jaw.none') }, ...JAWS.map((j) => ({ value: j, label: t(`jaw.${j}`) }))]}
        />
        <Typography.Text type="secondary">{t('upload.jawHint')}</Typography.Text>
      </Space>
      <div
        className="case-upload-area"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        style={{
          border: `1px dashed ${dragging ? '#1677ff' : 'rgba(128,128,128,0.5)'}`,
          borderRadius: 8,
          padding: 24,
          textAlign: 'center',
        }}
      >
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={ACCEPT_ATTR}
          data-testid="case-upload-input"
          style={{ display: 'none' }}
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            if (files.length) start(files);
          }}
        />
        <Button
          icon={<UploadOutlined aria-hidden />}
          data-testid="case-upload-button"
          onClick={() => inputRef.current?.click()}
        >
          {t('upload.choose')}
        </Button>
        <div style={{ marginTop: 8 }}>
          <Typography.Text type="secondary">
            {t('upload.hint', { formats: ACCEPT_ATTR.replace(/\./g, '').replace(/,/g, ', ') })}
          </Typography.Text>
        </div>
      </div>
      <VoiceMemoRecorder onRecorded={(file) => start([file])} />
      {items.map((i) => (
        <div key={i.id} data-testid={`upload-progress-${i.name}`} data-tag={i.tag} style={{ marginTop: 12 }}>
          <Space wrap>
            <Typography.Text strong>{i.name}</Typography.Text>
            <Typography.Text type="secondary">{sizeText(i.size)}</Typography.Text>
            <Tag color={TAG_COLORS[i.tag]} data-testid="upload-tag">
              {t(`uploadTag.${i.tag}`)}
            </Tag>
            {i.tag === 'uploading' && i.upload ? (
              <Button
                size="small"
                type="text"
                icon={<CloseOutlined aria-hidden />}
                aria-label={t('upload.cancel')}
                onClick={() => {
                  const u = i.upload!;
                  uploads.current.delete(u);
                  void u.abort(true);
                  patch(i.id, { tag: 'uploadFail', failure: { key: 'upload.canceled' }, upload: undefined });
                }}
              />
            ) : null}
          </Space>
          <Progress
            percent={i.percent}
            size="small"
            status={i.tag === 'uploadFail' ? 'exception' : i.tag === 'uploaded' ? 'success' : 'active'}
          />
          {i.failure ? (
            <Typography.Text type="danger" data-testid="upload-error">
              {'msg' in i.failure ? i.failure.msg : t(i.failure.key)}
            </Typography.Text>
          ) : null}
        </div>
      ))}
    </div>
  );
}
