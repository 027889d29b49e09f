import { useState } from 'react';
import { Button, Input, Popconfirm, Space } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PickHit } from './engine';
import type { ViewerAnnotation } from './types';

/** The longest note a pin takes (the server's limit too). */
export const NOTE_MAX = 500;

/**
 * Notes pinned to the scans: the numbered list under the viewer (a click on one highlights its pin), and, while
 * annotating, the note for the point just clicked.
 */
export function AnnotationsPanel({
  annotations,
  draft,
  onCancelDraft,
  onAnnotate,
  onDelete,
  active,
  onActivate,
}: {
  annotations: ViewerAnnotation[];
  draft: PickHit | null;
  onCancelDraft: () => void;
  onAnnotate?: (note: { modelId: string; point: PickHit['point']; text: string }) => Promise<void>;
  onDelete?: (id: string) => Promise<void>;
  active: string | null;
  onActivate: (id: string | null) => void;
}) {
  const { t } = useTranslation('common');
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!draft?.modelId || !onAnnotate || !text.trim()) return;
    setSaving(true);
    try {
      await onAnnotate({ modelId: draft.modelId, point: draft.point, text: text.trim() });
      setText('');
      onCancelDraft();
    } finally {
      setSaving(false);
    }
  };
  return (
    <div data-testid="viewer-annotations">
      {draft ? (
        <Space.Compact style={{ width: '100%', marginBottom: 8 }}>
          <Input
            // The reader has just clicked where the note goes: the note is what comes next.
            autoFocus
            maxLength={NOTE_MAX}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onPressEnter={() => void save()}
            placeholder={t('viewer.notePlaceholder')}
            aria-label={t('viewer.note')}
            data-testid="viewer-annotation-text"
          />
          <Button
            type="primary"
            loading={saving}
            disabled={!text.trim()}
            onClick={() => void save()}
            data-testid="viewer-annotation-save"
          >
            {t('viewer.pinNote')}
          </Button>
          <Button onClick={onCancelDraft}>{t('cancel')}</Button>
        </Space.Compact>
      ) : null}
      {annotations.length > 0 ? (
        <ol style={{ margin: 0, paddingInlineStart: 0, listStyle: 'none', display: 'grid', gap: 4 }}>
          {annotations.map((a) => (
            <li
              key={a.id}
              data-testid="viewer-annotation"
              style={{ display: 'flex', alignItems: 'flex-start', gap: 8 }}
            >
              <button
                type="button"
                onClick={() => onActivate(active === a.id ? null : a.id)}
                aria-pressed={active === a.id}
                style={{
                  flex: 'none',
                  width: 24,
                  height: 24,
                  borderRadius: 12,
                  border: 0,
                  color: '#fff',
                  background: active === a.id ? '#d4380d' : '#531dab',
                  cursor: 'pointer',
                  fontWeight: 600,
                }}
                aria-label={t('viewer.showNote', { n: a.number })}
              >
                {a.number}
              </button>
              <span style={{ flex: 1, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {a.text}
                {a.author !== undefined ? <span className="muted"> · {a.author ?? t('formerUser')}</span> : null}
              </span>
              {onDelete ? (
                <Popconfirm title={t('viewer.deleteNoteConfirm', { n: a.number })} onConfirm={() => onDelete(a.id)}>
                  <Button
                    size="small"
                    type="text"
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={t('viewer.deleteNote', { n: a.number })}
                    data-testid="viewer-annotation-delete"
                  />
                </Popconfirm>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
