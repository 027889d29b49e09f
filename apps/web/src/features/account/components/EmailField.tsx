import { useState } from 'react';
import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX, type UserInfo } from '@portal/contracts';
import { ApiError, errorText } from '../../../lib/http';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { userDetailQuery } from '../api/account';
import { useEditEmail } from '../api/useAccountMutations';

/** The email address: a new one applies once the link mailed to it is opened. */
export function EmailField({ user }: { user: UserInfo }) {
  const { t } = useTranslation('account');
  const editEmail = useEditEmail();
  const detail = useQuery(userDetailQuery());
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ email: string }>();
  useBackClose(open, () => setOpen(false));
  const pending = detail.data?.pendingEmail;

  const save = async ({ email }: { email: string }) => {
    setBusy(true);
    try {
      await editEmail(email.trim());
      notify.success(t('email.sent', { email: email.trim() }));
      setOpen(false);
    } catch (err) {
      if (err instanceof ApiError && err.code !== 1014)
        form.setFields([{ name: 'email', errors: [errorText(err.code, err.msg) ?? ''] }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form.Item
      label={t('email.label')}
      htmlFor="own-email"
      extra={
        pending ? (
          <Typography.Text type="warning" data-testid="own-email-pending">
            {t('email.pending', { email: pending })}
          </Typography.Text>
        ) : null
      }
    >
      <Space.Compact style={{ width: '100%' }}>
        <Input id="own-email" value={user.email} readOnly disabled />
        <Button onClick={() => setOpen(true)} data-testid="own-email-change">
          {t('email.change')}
        </Button>
      </Space.Compact>
      <Modal
        open={open}
        title={t('email.title')}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText={t('email.send')}
        okButtonProps={{ loading: busy, 'data-testid': 'own-email-send' }}
        destroyOnHidden
      >
        <p>{t('email.explain')}</p>
        <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
          <Form.Item
            name="email"
            label={t('email.new')}
            rules={[{ required: true, type: 'email', message: t('common:emailInvalid') }]}
          >
            <Input type="email" maxLength={FIELD_MAX.email} autoComplete="email" data-testid="own-email-new" />
          </Form.Item>
        </Form>
      </Modal>
    </Form.Item>
  );
}
