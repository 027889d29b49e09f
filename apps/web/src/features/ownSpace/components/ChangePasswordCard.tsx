import { useState } from 'react';
import { Button, Card, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { PasswordFields } from '../../../components/PasswordFields';
import { notify } from '../../../lib/notify';
import { changePass } from '../api/changePass';

interface Values {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

export function ChangePasswordCard() {
  const { t } = useTranslation('ownSpace');
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const onFinish = async (v: Values) => {
    setBusy(true);
    try {
      await changePass(v);
      form.resetFields();
      notify.success(t('password.done'));
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('password.title')} data-testid="own-password">
      <Form<Values> form={form} layout="vertical" onFinish={(v) => void onFinish(v)}>
        <Form.Item
          name="oldPassword"
          label={t('password.old')}
          rules={[{ required: true, message: t('common:required') }]}
        >
          <Input.Password autoComplete="current-password" data-testid="change-password-old" />
        </Form.Item>
        <PasswordFields testIdPrefix="change-password" />
        <Button type="primary" htmlType="submit" loading={busy} data-testid="change-password-submit">
          {t('password.submit')}
        </Button>
      </Form>
    </Card>
  );
}
