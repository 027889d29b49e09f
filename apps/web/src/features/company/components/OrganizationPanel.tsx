import { useEffect } from 'react';
import { Alert, Button, Card, Col, Form, Input, Row, Select, Spin } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  FIELD_MAX,
  OrgType,
  Permission,
  TOOTH_NUMBERING_SYSTEMS,
  type CompanyInfo,
  type EditCompanyBody,
  type ToothNumberingSystem,
} from '@portal/contracts';
import { Access, useAccess } from '../../../components/Access';
import { notify } from '../../../lib/notify';
import { patchUser, useSession } from '../../../lib/session';
import { areasQuery, companyInfoQuery, companyKeys, editCompany } from '../api/company';
import { CompanyImage } from './CompanyImage';
import { CloseAccountCard } from './CloseAccountCard';
import { ScanRetentionCard } from './ScanRetentionCard';
import { sayIfRefused } from '../../../lib/refusal';
import { searchable } from '../../../lib/selectSearch';

interface Values {
  name: string;
  abbreviation?: string;
  licenseCode?: string;
  representativeName?: string;
  phone?: string;
  email?: string;
  countryId?: string;
  stateId?: string;
  cityId?: string;
  city?: string;
  district?: string;
  postalCode?: string;
  address?: string;
  /** '' follows where the organization works. */
  defaultToothNumbering: '' | ToothNumberingSystem;
}

const valuesOf = (c: CompanyInfo): Values => ({
  name: c.name,
  abbreviation: c.abbreviation ?? '',
  licenseCode: c.licenseCode ?? '',
  representativeName: c.representativeName ?? '',
  phone: c.phone ?? '',
  email: c.email ?? '',
  countryId: c.countryId ?? undefined,
  stateId: c.stateId ?? undefined,
  cityId: c.cityId ?? undefined,
  city: c.cityId ? '' : (c.city ?? ''),
  district: c.district ?? '',
  postalCode: c.postalCode ?? '',
  address: c.address ?? '',
  defaultToothNumbering: c.defaultToothNumbering ?? '',
});

/** Own space → Organization: the organization's information and address, its images, and closing the account. */
export default function OrganizationPanel() {
  const info = useQuery(companyInfoQuery());
  if (!info.data) return <Spin />;
  return <OrganizationForm company={info.data} />;
}

function OrganizationForm({ company }: { company: CompanyInfo }) {
  const { t } = useTranslation(['company', 'numbering']);
  const qc = useQueryClient();
  const { user } = useSession();
  const can = useAccess();
  const editable = can(Permission.CompanyEdit);
  const [form] = Form.useForm<Values>();
  const countryId = Form.useWatch('countryId', form);
  const stateId = Form.useWatch('stateId', form);
  const countries = useQuery(areasQuery(''));
  const states = useQuery({ ...areasQuery(countryId ?? ''), enabled: Boolean(countryId) });
  const cities = useQuery({ ...areasQuery(stateId ?? ''), enabled: Boolean(stateId) });
  const stateList = countryId ? (states.data?.list ?? []) : [];
  const cityList = stateId ? (cities.data?.list ?? []) : [];
  // Where the areas hold no cities under the state (most of Europe), the city is typed.
  const typedCity = Boolean(stateId) && cities.isSuccess && cityList.length === 0;

  useEffect(() => form.setFieldsValue(valuesOf(company)), [company, form]);

  const save = useMutation({
    mutationFn: (body: EditCompanyBody) => editCompany(body),
    onSuccess: (saved) => {
      qc.setQueryData(companyKeys.info, saved);
      if (user) patchUser({ organization: { ...user.organization, name: saved.name } });
      notify.success(t('common:saved'));
    },
    onError: sayIfRefused,
  });

  const onFinish = (v: Values) => {
    const text = (s?: string) => s?.trim() ?? '';
    save.mutate({
      name: v.name.trim(),
      abbreviation: text(v.abbreviation),
      licenseCode: text(v.licenseCode),
      representativeName: text(v.representativeName),
      phone: text(v.phone),
      email: text(v.email),
      countryId: v.countryId ?? '',
      stateId: v.stateId ?? '',
      cityId: typedCity ? '' : (v.cityId ?? ''),
      city: typedCity ? text(v.city) : '',
      district: text(v.district),
      postalCode: text(v.postalCode),
      address: text(v.address),
      defaultToothNumbering: v.defaultToothNumbering,
    });
  };

  const area = (list: { id: string; name: string }[]) => list.map((a) => ({ value: a.id, label: a.name }));
  const areaSelect = { ...searchable, allowClear: true, disabled: !editable } as const;
  const required = [{ required: true, message: t('common:required') }];
  const text = (name: keyof Values, max: number, extra: { type?: 'email' } = {}) => (
    <Form.Item
      name={name}
      label={t(`field.${name}`)}
      rules={[
        { max, message: t('common:tooLong', { n: max }) },
        ...(extra.type ? [{ type: extra.type, message: t('common:emailInvalid') }] : []),
      ]}
    >
      <Input data-testid={`company-${name}`} maxLength={max} disabled={!editable} />
    </Form.Item>
  );

  return (
    <Row gutter={[16, 16]} data-testid="own-company">
      <Col xs={24} lg={14}>
        <Card title={t('title')}>
          {editable ? null : <Alert type="info" showIcon title={t('readOnly')} style={{ marginBottom: 16 }} />}
          <Form<Values> form={form} layout="vertical" onFinish={onFinish} initialValues={valuesOf(company)}>
            <Form.Item
              name="name"
              label={t('field.name')}
              rules={[...required, { whitespace: true, message: t('common:required') }]}
            >
              <Input data-testid="company-name" maxLength={FIELD_MAX.organizationName} disabled={!editable} />
            </Form.Item>
            {text('abbreviation', FIELD_MAX.abbreviation)}
            {text('licenseCode', FIELD_MAX.code)}
            {text('representativeName', FIELD_MAX.name)}
            {text('phone', FIELD_MAX.phone)}
            {text('email', FIELD_MAX.email, { type: 'email' })}
            <Form.Item name="countryId" label={t('field.country')} rules={required}>
              <Select
                {...areaSelect}
                data-testid="company-country"
                loading={countries.isLoading}
                options={area(countries.data?.list ?? [])}
                onChange={() => form.setFieldsValue({ stateId: undefined, cityId: undefined, city: '' })}
              />
            </Form.Item>
            <Form.Item
              name="stateId"
              label={t('field.state')}
              rules={stateList.length ? required : []}
              hidden={Boolean(countryId) && states.isSuccess && stateList.length === 0}
            >
              <Select
                {...areaSelect}
                data-testid="company-state"
                loading={states.isLoading}
                options={area(stateList)}
                onChange={() => form.setFieldsValue({ cityId: undefined, city: '' })}
              />
            </Form.Item>
            {typedCity ? (
              text('city', FIELD_MAX.name)
            ) : (
              <Form.Item name="cityId" label={t('field.city')}>
                <Select
                  {...areaSelect}
                  data-testid="company-city"
                  loading={cities.isLoading}
                  options={area(cityList)}
                />
              </Form.Item>
            )}
            {text('district', FIELD_MAX.name)}
            {text('postalCode', 20)}
            {text('address', FIELD_MAX.address)}
            <Form.Item
              name="defaultToothNumbering"
              label={t('numbering:companyDefault')}
              extra={t('numbering:companyDefaultHelp')}
            >
              <Select
                data-testid="company-tooth-numbering"
                disabled={!editable}
                options={[
                  { value: '', label: t('numbering:byRegion') },
                  ...TOOTH_NUMBERING_SYSTEMS.map((s) => ({ value: s, label: t(`numbering:name.${s}`) })),
                ]}
              />
            </Form.Item>
            <Access permission={Permission.CompanyEdit}>
              <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="company-save">
                {t('common:save')}
              </Button>
            </Access>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Row gutter={[16, 16]}>
          <Col span={24}>
            <Card title={t('images.title')}>
              <CompanyImage target="organization" present={company.hasLogo} editable={editable} />
              <CompanyImage target="license" present={company.hasLicenseImage} editable={editable} />
            </Card>
          </Col>
          {company.type === OrgType.Clinic ? (
            <Col span={24}>
              <ScanRetentionCard company={company} editable={editable} />
            </Col>
          ) : null}
          <Access permission={Permission.CompanyClose}>
            <Col span={24}>
              <CloseAccountCard company={company} />
            </Col>
          </Access>
        </Row>
      </Col>
    </Row>
  );
}
