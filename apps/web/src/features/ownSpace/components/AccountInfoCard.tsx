import { useState } from 'react';
import { Button, Card, Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX, LANGUAGES, LANGUAGE_NAMES, type Language, type UserInfo } from '@portal/contracts';
import { patchUser } from '../../../lib/session';
import { notify } from '../../../lib/notify';
import { setLanguage } from '../../../lib/i18n';
import { updateUser, type UpdateUserBody } from '../api/updateUser';

interface Values {
  displayName: string;
  nickname?: string;
  phone?: string;
  gender?: 1 | 2;
  language: Language;
  receiveEmail: boolean;
}

export function AccountInfoCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation('ownSpace');
  const [busy, setBusy] = useState(false);
  const onFinish = async (v: Values) => {
    setBusy(true);
    const body: UpdateUserBody = {
      displayName: v.displayName.trim(),
      nickname: v.nickname?.trim() ?? '',
      phone: v.phone?.trim() ?? '',
      language: v.language,
      receiveEmail: v.receiveEmail,
      ...(v.gender ? { gender: v.gender } : {}),
    };
    try {
      await updateUser(body);
      patchUser({
        ...body,
        nickname: body.nickname || null,
        phone: body.phone || null,
        gender: v.gender ?? user.gender,
      });
      if (v.language !== user.language) await setLanguage(v.language);
      notify.success(t('common:saved'));
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('account.title')} data-testid="own-account">
      <Form<Values>
        layout="vertical"
        onFinish={(v) => void onFinish(v)}
        initialValues={{
          displayName: user.displayName,
          nickname: user.nickname ?? '',
          phone: user.phone ?? '',
          gender: user.gender ?? undefined,
          language: user.language,
          receiveEmail: user.receiveEmail,
        }}
      >
        <Form.Item label={t('account.account')} htmlFor="own-account">
          <Input id="own-account" value={user.account} disabled />
        </Form.Item>
        <Form.Item label={t('account.email')} htmlFor="own-email">
          <Input id="own-email" value={user.email} disabled />
        </Form.Item>
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
          <Select options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))} />
        </Form.Item>
        <Form.Item name="receiveEmail" label={t('account.receiveEmail')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="own-save">
          {t('common:save')}
        </Button>
      </Form>
    </Card>
  );
}
