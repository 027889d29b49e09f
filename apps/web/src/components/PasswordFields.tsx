import { Form, Input } from 'antd';
import { checkPassword } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { PasswordStrength } from './PasswordStrength';

/** New password + confirmation with the live rule display; used by every password form. */
export function PasswordFields({ testIdPrefix = 'password', label }: { testIdPrefix?: string; label?: string }) {
  const { t } = useTranslation();
  const password = Form.useWatch<string | undefined>('password');
  return (
    <>
      <Form.Item
        name="password"
        label={label ?? t('password.new')}
        rules={[
          { required: true, message: t('required') },
          {
            validator: (_, value: string | undefined) =>
              !value || checkPassword(value).valid
                ? Promise.resolve()
                : Promise.reject(new Error(t('password.invalid'))),
          },
        ]}
        extra={<PasswordStrength password={password} />}
      >
        <Input.Password autoComplete="new-password" data-testid={`${testIdPrefix}-new`} maxLength={20} />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('password.confirm')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('required') },
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              !value || getFieldValue('password') === value
                ? Promise.resolve()
                : Promise.reject(new Error(t('passwordsDontMatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid={`${testIdPrefix}-confirm`} maxLength={20} />
      </Form.Item>
    </>
  );
}
