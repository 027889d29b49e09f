import { useEffect } from 'react';
import { Form, Input, Modal, Radio, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX, type ManagedUser, type SaveUserBody } from '@portal/contracts';
import { showSubmitError } from '../../../lib/formErrors';
import { notify } from '../../../lib/notify';
import { roleLabel } from '../../../lib/roles';
import { assignableRolesQuery } from '../api/assignableRoles';
import { isTaken } from '../api/isTaken';
import { useSaveUser } from '../api/useUserMutations';
import { searchable } from '../../../lib/selectSearch';

type FormValues = Omit<SaveUserBody, 'userCode' | 'organizationCode'>;

/** Adds a user (`user` null) or edits one; account, email and phone are checked as they are typed. */
export function UserFormModal({
  open,
  user,
  onClose,
}: {
  open: boolean;
  user: ManagedUser | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('users');
  const [form] = Form.useForm<FormValues>();
  const roles = useQuery({ ...assignableRolesQuery(), enabled: open });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (user) {
      form.setFieldsValue({
        account: user.account,
        displayName: user.displayName,
        nickname: user.nickname ?? '',
        email: user.email,
        phone: user.phone ?? '',
        gender: user.gender === 1 || user.gender === 2 ? user.gender : undefined,
        roleCode: user.role.code,
      });
    }
  }, [open, user, form]);

  const save = useSaveUser({
    onSuccess: (saved) => {
      notify.success(user ? t('saved') : t('added', { email: saved.email }));
      onClose();
    },
    // A taken account, email or phone marks its field; other refusals show as a message.
    onError: (e) => showSubmitError(form, e),
  });

  /** A field that must not belong to another user, asked as the user types. */
  const unique = (field: 'account' | 'email' | 'phone', current: string | null | undefined) => ({
    validator: async (_: unknown, value: string | undefined) => {
      const v = value?.trim();
      if (!v || v === current) return;
      if (await isTaken(field, v).catch(() => false)) throw new Error(t(`taken.${field}`));
    },
    validateTrigger: 'onBlur',
  });

  return (
    <Modal
      open={open}
      title={user ? t('editTitle', { name: user.displayName }) : t('addTitle')}
      okText={user ? t('save') : t('add')}
      cancelText={t('common:cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'user-form-submit' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate({ ...v, userCode: user?.userCode })}
        data-testid="user-form"
      >
        <Form.Item
          name="account"
          label={t('field.account')}
          validateTrigger={['onChange', 'onBlur']}
          rules={[{ required: true, message: t('common:required') }, unique('account', user?.account)]}
        >
          <Input maxLength={FIELD_MAX.account} autoComplete="off" data-testid="user-form-account" />
        </Form.Item>
        <Form.Item
          name="displayName"
          label={t('field.displayName')}
          rules={[{ required: true, message: t('common:required') }]}
        >
          <Input maxLength={FIELD_MAX.name} data-testid="user-form-name" />
        </Form.Item>
        <Form.Item name="nickname" label={t('field.nickname')}>
          <Input maxLength={FIELD_MAX.name} />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('field.email')}
          validateTrigger={['onChange', 'onBlur']}
          rules={[
            { required: true, message: t('common:required') },
            { type: 'email', message: t('invalidEmail') },
            unique('email', user?.email),
          ]}
        >
          <Input type="email" maxLength={FIELD_MAX.email} data-testid="user-form-email" />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('field.phone')}
          validateTrigger={['onChange', 'onBlur']}
          rules={[unique('phone', user?.phone)]}
        >
          <Input maxLength={FIELD_MAX.phone} />
        </Form.Item>
        <Form.Item name="gender" label={t('field.gender')}>
          <Radio.Group
            options={[
              { value: 1, label: t('gender.1') },
              { value: 2, label: t('gender.2') },
            ]}
          />
        </Form.Item>
        <Form.Item name="roleCode" label={t('field.role')} rules={[{ required: true, message: t('common:required') }]}>
          <Select
            {...searchable}
            data-testid="user-form-role"
            loading={roles.isLoading}
            disabled={user?.self}
            options={(roles.data ?? []).map((r) => ({ value: r.roleCode, label: roleLabel(t, r.name) }))}
          />
        </Form.Item>
        {user ? null : <p className="form-hint">{t('addHint')}</p>}
      </Form>
    </Modal>
  );
}
