import { useEffect } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX } from '@portal/contracts';
import { useBackClose } from '../../../lib/useBackClose';

/**
 * A reason for a partnership change: required to reject, optional to terminate.
 * Test ids: `<testId>-reason` (text area), `<testId>-confirm` (OK button).
 */
export function ReasonModal({
  open,
  title,
  content,
  label,
  required,
  okText,
  testId,
  busy,
  onClose,
  onSubmit,
}: {
  open: boolean;
  title: string;
  content?: string;
  label: string;
  required: boolean;
  okText: string;
  testId: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: (reason: string | undefined) => void;
}) {
  const { t } = useTranslation('partners');
  const [form] = Form.useForm<{ reason?: string }>();
  useBackClose(open, onClose);
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      okText={okText}
      cancelText={t('common:cancel')}
      okButtonProps={{ danger: true, loading: busy, 'data-testid': `${testId}-confirm` }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      {content ? <p>{content}</p> : null}
      <Form form={form} layout="vertical" onFinish={(v) => onSubmit(v.reason?.trim() || undefined)}>
        <Form.Item
          name="reason"
          label={label}
          rules={[
            ...(required ? [{ required: true, whitespace: true, message: t('reject.reasonRequired') }] : []),
            { max: FIELD_MAX.reason, message: t('common:tooLong', { n: FIELD_MAX.reason }) },
          ]}
        >
          <Input.TextArea rows={3} data-testid={`${testId}-reason`} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
