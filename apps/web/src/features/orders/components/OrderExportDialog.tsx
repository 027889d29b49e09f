import { useState } from 'react';
import { Modal, Radio, Space, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ORDER_EXPORT_FORMATS } from '@portal/contracts';
import { useBackClose } from '../../../lib/useBackClose';
import { exportOrders } from '../api/exportOrders';
import type { ExportFormat, OrderExportInput } from '../api/types';
import { saveBlob } from '../../../lib/download';
import { sayIfRefused } from '../../../lib/refusal';

/** Exports the orders the list's filters match (all pages) as a spreadsheet or CSV file. */
export function OrderExportDialog({
  open,
  body,
  onClose,
}: {
  open: boolean;
  body: (format: ExportFormat) => OrderExportInput;
  onClose: () => void;
}) {
  const { t } = useTranslation('orders');
  const [format, setFormat] = useState<ExportFormat>('xlsx');
  useBackClose(open, onClose);
  const run = useMutation({
    mutationFn: () => exportOrders(body(format)),
    onSuccess: (file) => {
      saveBlob(file.blob, file.filename ?? `orders.${format}`);
      onClose();
    },
    onError: sayIfRefused,
  });
  return (
    <Modal
      open={open}
      title={t('export.title')}
      okText={t('export.download')}
      cancelText={t('common:cancel')}
      okButtonProps={{ loading: run.isPending, 'data-testid': 'order-export-confirm' }}
      onOk={() => run.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('export.hint')}</Typography.Paragraph>
      <Radio.Group
        value={format}
        onChange={(e) => setFormat(e.target.value as ExportFormat)}
        aria-label={t('export.format')}
      >
        <Space orientation="vertical">
          {ORDER_EXPORT_FORMATS.map((f) => (
            <Radio key={f} value={f} data-testid={`order-export-format-${f}`}>
              {t(`export.${f}`)}
            </Radio>
          ))}
        </Space>
      </Radio.Group>
    </Modal>
  );
}
