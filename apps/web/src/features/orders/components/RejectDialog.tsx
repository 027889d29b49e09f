import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX } from '@portal/contracts';
import { useBackClose } from '../../../lib/useBackClose';

/** The laboratory turns down one or more orders; the clinic reads the reason in the timeline. */
export function RejectDialog({
  open,
  count,
  busy,
  onClose,
  onSubmit,
}: {
  open: boolean;
  count: number;
  busy: boolean;
  onClose: () => void;
  onSubmit: (reason: string) => void;
}) {
  const { t } = useTranslation('orders');
  const [form] = Form.useForm<{ reason: string }>();
  useBackClose(open, onClose);
  return (
    <Modal
      open={open}
      title={t('reject.title', { count })}
      okText={t('action.reject')}
      cancelText={t('common:cancel')}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': 'reject-confirm' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => onSubmit(v.reason.trim())}>
        <Form.Item
          name="reason"
          label={t('field.reason')}
          rules={[
            { required: true, whitespace: true, message: t('reject.reasonRequired') },
            { max: FIELD_MAX.reason, message: t('tooLong', { n: FIELD_MAX.reason }) },
          ]}
        >
          <Input.TextArea rows={3} data-testid="reject-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
