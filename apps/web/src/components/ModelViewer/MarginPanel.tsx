import { useState } from 'react';
import { Button, Popconfirm, Select, Space } from 'antd';
import { DeleteOutlined, UndoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Point3, ViewerMarginLine } from './types';
import { searchable } from '../../lib/selectSearch';

/** The fewest points that make a margin line (a loop around the preparation), and the most it keeps. */
export const MARGIN_POINTS = { min: 3, max: 500 } as const;

/**
 * Margin lines: while drawing, each click on the scan adds a point around the preparation of the chosen tooth; the
 * saved lines are listed, and drawn as loops.
 */
export function MarginPanel({
  lines,
  teeth,
  tooth,
  onTooth,
  draft,
  onUndo,
  onClear,
  onSave,
  onDelete,
}: {
  lines: ViewerMarginLine[];
  teeth?: { value: number; label: string }[];
  tooth: number | null;
  onTooth?: (tooth: number) => void;
  /** The points clicked so far (drawing), or null when not drawing. */
  draft: { modelId: string; points: Point3[] } | null;
  onUndo: () => void;
  onClear: () => void;
  onSave?: () => Promise<void>;
  onDelete?: (tooth: number) => Promise<void>;
}) {
  const { t } = useTranslation('common');
  const [saving, setSaving] = useState(false);
  const count = draft?.points.length ?? 0;
  return (
    <div data-testid="viewer-margin" style={{ display: 'grid', gap: 8 }}>
      {draft && teeth ? (
        <Space wrap>
          <span id="viewer-margin-tooth">{t('viewer.marginTooth')}</span>
          <Select
            {...searchable}
            size="small"
            style={{ minWidth: 90 }}
            value={tooth ?? undefined}
            onChange={(v: number) => onTooth?.(v)}
            options={teeth}
            aria-labelledby="viewer-margin-tooth"
            data-testid="viewer-margin-tooth"
          />
          <span role="status" data-testid="viewer-margin-points" data-count={count}>
            {t('viewer.marginPoints', { count })}
          </span>
          <Button size="small" icon={<UndoOutlined aria-hidden />} disabled={count === 0} onClick={onUndo}>
            {t('viewer.undoPoint')}
          </Button>
          <Button size="small" disabled={count === 0} onClick={onClear}>
            {t('viewer.clearPoints')}
          </Button>
          <Button
            size="small"
            type="primary"
            loading={saving}
            disabled={count < MARGIN_POINTS.min || tooth === null}
            data-testid="viewer-margin-save"
            onClick={() => {
              if (!onSave) return;
              setSaving(true);
              void onSave().finally(() => setSaving(false));
            }}
          >
            {t('viewer.saveMargin')}
          </Button>
        </Space>
      ) : null}
      {lines.length > 0 ? (
        <ul style={{ margin: 0, paddingInlineStart: 0, listStyle: 'none', display: 'grid', gap: 4 }}>
          {lines.map((l) => (
            <li key={l.tooth} data-testid="viewer-margin-line" data-tooth={l.tooth} style={{ display: 'flex', gap: 8 }}>
              <span style={{ flex: 1 }}>
                {t('viewer.marginOf', { tooth: l.label })}
                {l.author !== undefined ? <span className="muted"> · {l.author ?? t('formerUser')}</span> : null}
              </span>
              {onDelete ? (
                <Popconfirm
                  title={t('viewer.deleteMarginConfirm', { tooth: l.label })}
                  onConfirm={() => onDelete(l.tooth)}
                >
                  <Button
                    size="small"
                    type="text"
                    icon={<DeleteOutlined aria-hidden />}
                    aria-label={t('viewer.deleteMargin', { tooth: l.label })}
                    data-testid="viewer-margin-delete"
                  />
                </Popconfirm>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
