import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Modal, Progress, Space, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ExportStatus, FILE_FORMATS } from '@portal/contracts';
import { getPrefs, savePrefs } from '../../../lib/prefs';
import { useBackClose } from '../../../lib/useBackClose';
import { createExport } from '../api/createExport';
import { exportStatus } from '../api/exportStatus';
import { caseKeys } from '../api/keys';
import { exportMessageKey, isExportRunning } from '../lib/exportState';
import { serverLink } from '../../../lib/download';
import { sizeText } from '../../../lib/sizes';
import { sayIfRefused } from '../../../lib/refusal';
import { fallbackPoll } from '../../../lib/live';

/** While the socket is down, a running export's progress is asked for this often. */
const poll = fallbackPoll(1000);

/** Export of the selected cases: choose file types → pack on the server → download link. */
export function ExportDialog({
  open,
  caseCodes,
  onClose,
}: {
  open: boolean;
  caseCodes: string[];
  onClose: () => void;
}) {
  const { t } = useTranslation('cases');
  const [types, setTypes] = useState<string[]>(() => [...getPrefs().exportTypes]);
  const [exportCode, setExportCode] = useState<string | null>(null);
  useBackClose(open, onClose);

  useEffect(() => {
    if (open) {
      setTypes([...getPrefs().exportTypes].filter((f) => (FILE_FORMATS as readonly string[]).includes(f)));
      setExportCode(null);
    }
  }, [open]);

  const start = useMutation({
    mutationFn: () => createExport({ caseCodes, types }),
    onSuccess: (info) => {
      savePrefs({ exportTypes: types });
      setExportCode(info.exportCode);
    },
    onError: sayIfRefused,
  });

  const status = useQuery({
    queryKey: caseKeys.export(exportCode),
    queryFn: () => exportStatus(exportCode!),
    enabled: open && exportCode !== null,
    initialData: start.data && start.data.exportCode === exportCode ? start.data : undefined,
    initialDataUpdatedAt: 0,
    // A running export's progress comes as events; it is asked for only while the socket is down.
    refetchInterval: (q) => (q.state.data && !isExportRunning(q.state.data.status) ? false : poll()),
  });

  const info = exportCode ? status.data : undefined;
  const running = start.isPending || (info ? isExportRunning(info.status) : exportCode !== null);
  const failedKey = info ? exportMessageKey(info.status) : null;

  return (
    <Modal
      open={open}
      title={t('export.title', { count: caseCodes.length })}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <div data-testid="export-dialog">
        <Typography.Paragraph>{t('export.chooseTypes')}</Typography.Paragraph>
        <Checkbox.Group value={types} onChange={(v) => setTypes(v)} disabled={running}>
          <Space wrap>
            {FILE_FORMATS.map((f) => (
              <Checkbox key={f} value={f} data-testid={`export-type-${f}`}>
                {f.toUpperCase()}
              </Checkbox>
            ))}
          </Space>
        </Checkbox.Group>
        {types.length === 0 ? (
          <Typography.Paragraph type="danger" style={{ marginTop: 8 }}>
            {t('export.typesRequired')}
          </Typography.Paragraph>
        ) : null}
        <div style={{ marginTop: 16 }}>
          <Button
            type="primary"
            data-testid="export-start"
            disabled={types.length === 0 || caseCodes.length === 0 || running}
            loading={running}
            onClick={() => {
              setExportCode(null);
              start.mutate();
            }}
          >
            {info && !running ? t('export.again') : t('export.start')}
          </Button>
        </div>
        {exportCode ? (
          <div style={{ marginTop: 16 }} data-testid="export-progress" data-status={info?.status ?? ''}>
            <Progress
              percent={
                info?.status === ExportStatus.Success
                  ? 100
                  : Math.max(0, Math.min(100, Math.round(info?.progress ?? 0)))
              }
              status={failedKey ? 'exception' : info?.status === ExportStatus.Success ? 'success' : 'active'}
            />
            {running ? <Typography.Text type="secondary">{t('export.packing')}</Typography.Text> : null}
            {info?.status === ExportStatus.Success && info.downloadUrl ? (
              <Space>
                <a href={serverLink(info.downloadUrl)} download data-testid="export-download">
                  {t('export.download')}
                </a>
                {info.size != null ? <Typography.Text type="secondary">{sizeText(info.size)}</Typography.Text> : null}
              </Space>
            ) : null}
            {failedKey ? <Alert type="error" showIcon title={t(failedKey)} data-testid="export-error" /> : null}
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
