import { useState } from 'react';
import { Button, Checkbox, Form, Input, Select } from 'antd';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FIELD_MAX, LANGUAGES, LANGUAGE_NAMES, OrgType, REGIONS, type Language, type Region } from '@portal/contracts';
import { PublicPage } from '../../../components/PublicPage';
import { PasswordFields } from '../../../components/PasswordFields';
import { showSubmitError } from '../../../lib/formErrors';
import { useAppConfig } from '../../../lib/appConfig';
import { currentLanguage } from '../../../lib/i18n';
import { checkUsernameExist } from '../api/checkUsernameExist';
import { registerClinic } from '../api/register';
import { registerCompany } from '../api/registerCompany';
import { searchable } from '../../../lib/selectSearch';

interface Values {
  organizationName: string;
  account: string;
  email: string;
  phone?: string;
  displayName: string;
  password: string;
  confirmPassword: string;
  language: Language;
  agreePrivacy: boolean;
  agreeCookie: boolean;
  agreeTerms: boolean;
  licenseCode?: string;
  representativeName?: string;
  country?: string;
  state?: string;
  city?: string;
  district?: string;
  postalCode?: string;
  address?: string;
  abbreviation?: string;
}

const ACCOUNT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export default function SelfRegisterPage() {
  const { t } = useTranslation('register');
  const cfg = useAppConfig();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const type = params.get('type');
  const region = params.get('region') as Region | null;
  if ((type !== 'clinic' && type !== 'lab') || !region || !REGIONS.includes(region))
    return <Navigate to="/register" replace />;
  const isLab = type === 'lab';
  const required = { required: true, whitespace: true, message: t('common:required') };

  const checkAccount = async () => {
    const account = (form.getFieldValue('account') as string | undefined)?.trim();
    if (!account || !ACCOUNT_RE.test(account) || account.length < 3) return;
    try {
      const { exists } = await checkUsernameExist(account);
      if (exists) form.setFields([{ name: 'account', errors: [t('accountTaken')] }]);
    } catch {
      /* the server re-checks on submit */
    }
  };

  const onFinish = async (v: Values) => {
    setBusy(true);
    const core = {
      orgType: isLab ? OrgType.Lab : OrgType.Clinic,
      region,
      organizationName: v.organizationName.trim(),
      account: v.account.trim(),
      email: v.email.trim(),
      phone: v.phone?.trim() ?? '',
      displayName: v.displayName.trim(),
      password: v.password,
      confirmPassword: v.confirmPassword,
      language: v.language,
      agreePrivacy: v.agreePrivacy,
      agreeCookie: v.agreeCookie,
      agreeTerms: v.agreeTerms,
    } as const;
    try {
      const result = isLab
        ? await registerCompany({
            ...core,
            orgType: OrgType.Lab,
            licenseCode: v.licenseCode?.trim() ?? '',
            representativeName: v.representativeName?.trim() ?? '',
            country: v.country?.trim() ?? '',
            city: v.city?.trim() ?? '',
            state: v.state?.trim() || undefined,
            district: v.district?.trim() || undefined,
            postalCode: v.postalCode?.trim() || undefined,
            address: v.address?.trim() || undefined,
            abbreviation: v.abbreviation?.trim() || undefined,
          })
        : await registerClinic({ ...core, orgType: OrgType.Clinic });
      void navigate(`/register-result?type=${type}&email=${encodeURIComponent(result.email)}`, { replace: true });
    } catch (err) {
      // A taken account, email or phone is written under its field.
      showSubmitError(form, err);
    } finally {
      setBusy(false);
    }
  };

  const text = (name: keyof Values, max: number, opts: { required?: boolean; type?: string } = {}) => (
    <Form.Item
      name={name}
      label={t(`field.${name}`)}
      rules={[
        ...(opts.required === false ? [] : [required]),
        { max, message: t('common:tooLong', { n: max }) },
        ...(opts.type === 'email' ? [{ type: 'email' as const, message: t('common:emailInvalid') }] : []),
      ]}
    >
      <Input data-testid={`register-${name}`} maxLength={max} type={opts.type === 'email' ? 'email' : 'text'} />
    </Form.Item>
  );

  const agreement = (name: 'agreePrivacy' | 'agreeCookie' | 'agreeTerms', url: string, label: string) => (
    <Form.Item
      name={name}
      valuePropName="checked"
      rules={[
        {
          validator: (_, value: boolean) =>
            value ? Promise.resolve() : Promise.reject(new Error(t('common:required'))),
        },
      ]}
    >
      <Checkbox data-testid={`register-${name}`}>
        {t('agree.prefix')}{' '}
        <a href={url} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
          {label}
        </a>
      </Checkbox>
    </Form.Item>
  );

  return (
    <PublicPage title={isLab ? t('form.titleLab') : t('form.titleClinic')} width={560}>
      <p className="muted">{t('form.region', { region: t(`region.${region}`) })}</p>
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={(v) => void onFinish(v)}
        initialValues={{ language: currentLanguage(), agreePrivacy: false, agreeCookie: false, agreeTerms: false }}
        scrollToFirstError
      >
        {text('organizationName', FIELD_MAX.organizationName)}
        {isLab ? (
          <>
            {text('abbreviation', FIELD_MAX.abbreviation, { required: false })}
            {text('licenseCode', FIELD_MAX.code)}
            {text('representativeName', FIELD_MAX.name)}
            {text('country', FIELD_MAX.name)}
            {text('state', FIELD_MAX.name, { required: false })}
            {text('city', FIELD_MAX.name)}
            {text('district', FIELD_MAX.name, { required: false })}
            {text('postalCode', 20, { required: false })}
            {text('address', FIELD_MAX.address, { required: false })}
          </>
        ) : null}
        <Form.Item
          name="account"
          label={t('field.account')}
          extra={t('field.accountHint')}
          rules={[
            required,
            { min: 3, message: t('accountFormat') },
            { max: FIELD_MAX.account, message: t('common:tooLong', { n: FIELD_MAX.account }) },
            { pattern: ACCOUNT_RE, message: t('accountFormat') },
          ]}
        >
          <Input data-testid="register-account" autoComplete="username" onBlur={() => void checkAccount()} />
        </Form.Item>
        {text('email', FIELD_MAX.email, { type: 'email' })}
        {text('phone', FIELD_MAX.phone, { required: false })}
        {text('displayName', FIELD_MAX.name)}
        <PasswordFields testIdPrefix="register-password" label={t('field.password')} />
        <Form.Item
          name="language"
          label={t('field.language')}
          rules={[{ required: true, message: t('common:required') }]}
        >
          <Select
            {...searchable}
            data-testid="register-language"
            options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          />
        </Form.Item>
        {agreement('agreePrivacy', cfg.agreement.privacy, t('agree.privacy'))}
        {agreement('agreeCookie', cfg.agreement.cookie, t('agree.cookie'))}
        {agreement('agreeTerms', cfg.agreement.terms, t('agree.terms'))}
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="register-submit">
          {t('form.submit')}
        </Button>
      </Form>
      <div className="public-links">
        <Link to="/login">{t('form.haveAccount')}</Link>
      </div>
    </PublicPage>
  );
}
