import { useEffect } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX } from '@portal/contracts';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { useInviteLab } from '../api/usePartnerMutations';

/** A clinic invites a laboratory that is not registered yet (a temporary partner until it confirms). */
export function InviteLabModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('partners');
  const [form] = Form.useForm<{ email: string }>();
  useBackClose(open, onClose);
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  const invite = useInviteLab({
    onSuccess: (_d, email) => {
      notify.success(t('invite.sent', { email }));
      onClose();
    },
  });
  return (
    <Modal
      open={open}
      title={t('invite.title')}
      onCancel={onClose}
      okText={t('invite.submit')}
      cancelText={t('common:cancel')}
      okButtonProps={{ loading: invite.isPending, 'data-testid': 'partner-invite-submit' }}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <p>{t('invite.hint')}</p>
      <Form form={form} layout="vertical" onFinish={(v) => invite.mutate(v.email.trim())}>
        <Form.Item
          name="email"
          label={t('invite.email')}
          rules={[
            { required: true, whitespace: true, message: t('common:required') },
            { type: 'email', message: t('common:emailInvalid') },
            { max: FIELD_MAX.email, message: t('common:tooLong', { n: FIELD_MAX.email }) },
          ]}
        >
          <Input type="email" autoComplete="off" data-testid="partner-invite-email" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
