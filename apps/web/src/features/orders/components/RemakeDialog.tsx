import { useState } from 'react';
import { Alert, Form, Input, Modal, Select, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { REMAKE_REASONS, type RemakeReason } from '@portal/contracts';
import { afterDialogClosed } from '../../../lib/afterDialog';
import { messageOf } from '../../../lib/errors';
import { errorText } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { useRemakeOrder } from '../api/useOrderMutations';
import { orderDetailPath } from '../lib/paths';

const NOTE_MAX = 2000;

/**
 * The clinic asks for a remake of a shipped or completed order: a reason from the list and a note for the laboratory.
 * On success the new order opens; a refusal (another remake under way, the partnership ended) shows in the dialog.
 */
export function RemakeDialog({ orderCode, open, onClose }: { orderCode: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('orders');
  const [form] = Form.useForm<{ reason: RemakeReason; note?: string }>();
  const [serverError, setServerError] = useState<string | null>(null);
  const navigate = useNavigate();
  useBackClose(open, onClose);
  const run = useRemakeOrder({
    onSuccess: (made) => {
      notify.success(t('remake.done'));
      onClose();
      afterDialogClosed(() => void navigate(orderDetailPath(made.orderCode)));
    },
    onError: (err) => setServerError(messageOf(err, errorText)),
  });
  return (
    <Modal
      open={open}
      title={t('remake.title')}
      okText={t('action.remake')}
      cancelText={t('common:cancel')}
      okButtonProps={{ loading: run.isPending, 'data-testid': 'remake-confirm' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterClose={() => setServerError(null)}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('remake.hint')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => {
          setServerError(null);
          run.mutate({ orderCode, reason: v.reason, note: v.note?.trim() || undefined });
        }}
      >
        <Form.Item
          name="reason"
          label={t('remake.reason')}
          rules={[{ required: true, message: t('remake.reasonRequired') }]}
        >
          <Select
            data-testid="remake-reason"
            placeholder={t('remake.reasonPlaceholder')}
            options={REMAKE_REASONS.map((r) => ({ value: r, label: t(`remakeReason.${r}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="note"
          label={t('remake.note')}
          rules={[{ max: NOTE_MAX, message: t('tooLong', { n: NOTE_MAX }) }]}
        >
          <Input.TextArea rows={3} data-testid="remake-note" />
        </Form.Item>
      </Form>
      {serverError ? <Alert type="error" showIcon data-testid="remake-error" title={serverError} /> : null}
    </Modal>
  );
}
