import { useState } from 'react';
import { Alert, Button, Form, Input, Modal, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX, type UserInfo } from '@portal/contracts';
import { ApiError, errorText } from '../../../lib/http';
import { patchUser } from '../../../lib/session';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { editUsername } from '../api/account';

/** The account name: changeable once (spec §5), read-only afterwards. */
export function AccountNameField({ user }: { user: UserInfo }) {
  const { t } = useTranslation('account');
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ account: string }>();
  useBackClose(open, () => setOpen(false));

  const save = async ({ account }: { account: string }) => {
    setBusy(true);
    try {
      const detail = await editUsername(account.trim());
      patchUser({ account: detail.account, accountChanged: true });
      notify.success(t('accountName.saved'));
      setOpen(false);
    } catch (err) {
      if (err instanceof ApiError) form.setFields([{ name: 'account', errors: [errorText(err.code, err.msg) ?? ''] }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form.Item
      label={t('accountName.label')}
      htmlFor="own-account"
      extra={user.accountChanged ? t('accountName.fixed') : t('accountName.once')}
    >
      <Space.Compact style={{ width: '100%' }}>
        <Input id="own-account" value={user.account} readOnly disabled data-testid="own-account-name" />
        {user.accountChanged ? null : (
          <Button onClick={() => setOpen(true)} data-testid="own-account-rename">
            {t('accountName.change')}
          </Button>
        )}
      </Space.Compact>
      <Modal
        open={open}
        title={t('accountName.title')}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText={t('accountName.confirm')}
        okButtonProps={{ loading: busy, 'data-testid': 'own-account-rename-save' }}
        destroyOnHidden
      >
        <Alert type="warning" showIcon title={t('accountName.warning')} style={{ marginBottom: 16 }} />
        <Form form={form} layout="vertical" onFinish={(v) => void save(v)} initialValues={{ account: user.account }}>
          <Form.Item
            name="account"
            label={t('accountName.new')}
            rules={[
              { required: true, whitespace: true, message: t('common:required') },
              { pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{2,}$/, message: t('accountName.format') },
            ]}
          >
            <Input maxLength={FIELD_MAX.account} autoComplete="username" data-testid="own-account-new" />
          </Form.Item>
        </Form>
      </Modal>
    </Form.Item>
  );
}
