import { useState } from 'react';
import { Button, Card, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX, LANGUAGES, LANGUAGE_NAMES, type Language, type UserInfo } from '@portal/contracts';
import { patchUser } from '../../../lib/session';
import { notify } from '../../../lib/notify';
import { showSubmitError } from '../../../lib/formErrors';
import { setLanguage } from '../../../lib/i18n';
import { AccountNameField, AvatarField, EmailField, editUser } from '../../account';
import { searchable } from '../../../lib/selectSearch';

interface Values {
  displayName: string;
  nickname?: string;
  phone?: string;
  gender?: 1 | 2;
  language: Language;
}

export function AccountInfoCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation('ownSpace');
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<Values>();
  const onFinish = async (v: Values) => {
    setBusy(true);
    const body = {
      displayName: v.displayName.trim(),
      nickname: v.nickname?.trim() ?? '',
      phone: v.phone?.trim() ?? '',
      language: v.language,
      ...(v.gender ? { gender: v.gender } : {}),
    };
    try {
      const saved = await editUser(body);
      patchUser({
        displayName: saved.displayName,
        nickname: saved.nickname,
        phone: saved.phone,
        gender: saved.gender,
        language: saved.language,
      });
      if (v.language !== user.language) await setLanguage(v.language);
      notify.success(t('common:saved'));
    } catch (err) {
      showSubmitError(form, err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('account.title')} data-testid="own-account">
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={(v) => void onFinish(v)}
        initialValues={{
          displayName: user.displayName,
          nickname: user.nickname ?? '',
          phone: user.phone ?? '',
          gender: user.gender ?? undefined,
          language: user.language,
        }}
      >
        <Form.Item>
          <AvatarField avatar={user.avatar} />
        </Form.Item>
        <AccountNameField user={user} />
        <EmailField user={user} />
        <Form.Item
          name="displayName"
          label={t('account.displayName')}
          rules={[{ required: true, whitespace: true, message: t('common:required') }]}
        >
          <Input maxLength={FIELD_MAX.name} data-testid="own-displayName" />
        </Form.Item>
        <Form.Item name="nickname" label={t('account.nickname')}>
          <Input maxLength={FIELD_MAX.name} data-testid="own-nickname" />
        </Form.Item>
        <Form.Item name="phone" label={t('account.phone')}>
          <Input maxLength={FIELD_MAX.phone} data-testid="own-phone" />
        </Form.Item>
        <Form.Item name="gender" label={t('account.gender')}>
          <Select
            allowClear
            options={[
              { value: 1, label: t('account.male') },
              { value: 2, label: t('account.female') },
            ]}
          />
        </Form.Item>
        <Form.Item name="language" label={t('account.language')}>
          <Select {...searchable} options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="own-save">
          {t('common:save')}
        </Button>
      </Form>
    </Card>
  );
}
