import { useEffect } from 'react';
import { Descriptions, Drawer, Image, Space, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CompanyImageTarget } from '@portal/contracts';
import { LoadFailed } from '../../../components/PageState';
import { organizationDetailQuery, organizationImageUrl, organizationKeys } from '../api/organizations';

const FIELDS = ['abbreviation', 'licenseCode', 'representativeName', 'phone', 'email'] as const;

/** An organization's stored image, fetched with the session (an <img> carries no token). */
function DetailImage({ code, target, present }: { code: string; target: CompanyImageTarget; present: boolean }) {
  const { t } = useTranslation('company');
  const image = useQuery({
    queryKey: organizationKeys.image(code, target),
    queryFn: () => organizationImageUrl(code, target),
    enabled: present,
    staleTime: Infinity,
    gcTime: 0,
  });
  useEffect(() => () => void (image.data && URL.revokeObjectURL(image.data)), [image.data]);
  return (
    <Space orientation="vertical" size={4} data-testid={`organization-detail-image-${target}`}>
      <Typography.Text strong>{t(`images.${target}`)}</Typography.Text>
      {image.data ? (
        <Image src={image.data} alt={t(`images.${target}`)} width={160} />
      ) : (
        <Typography.Text type="secondary">{t('images.none')}</Typography.Text>
      )}
    </Space>
  );
}

/**
 * The super administrator's view of one organization: what its administrator entered in own space (names, licence,
 * representative, address) and its logo and business licence image, as a reviewer needs them.
 */
export function OrganizationDetailDrawer({ code, onClose }: { code: string | null; onClose: () => void }) {
  const { t } = useTranslation(['organizations', 'company']);
  const detail = useQuery({ ...organizationDetailQuery(code ?? ''), enabled: Boolean(code) });
  const o = detail.data;
  const address = o ? [o.address, o.district, o.city, o.state, o.postalCode, o.country].filter(Boolean).join(', ') : '';
  return (
    <Drawer open={Boolean(code)} onClose={onClose} title={o?.name ?? t('detail.title')} size="large" destroyOnHidden>
      <div data-testid="organization-detail">
        {detail.isError ? <LoadFailed /> : null}
        {detail.isPending && code ? <Spin /> : null}
        {o ? (
          <Space orientation="vertical" size="large" style={{ width: '100%' }}>
            <Descriptions column={1} size="small" bordered>
              <Descriptions.Item label={t('col.type')}>{t(`type.${o.type}`)}</Descriptions.Item>
              <Descriptions.Item label={t('col.region')}>
                {t(`register:region.${o.region}`, { defaultValue: o.region })}
              </Descriptions.Item>
              {FIELDS.map((f) => (
                <Descriptions.Item key={f} label={t(`company:field.${f}`)}>
                  {o[f] || '—'}
                </Descriptions.Item>
              ))}
              <Descriptions.Item label={t('detail.address')}>{address || '—'}</Descriptions.Item>
            </Descriptions>
            <Space wrap size="large">
              <DetailImage code={o.organizationCode} target="organization" present={o.hasLogo} />
              <DetailImage code={o.organizationCode} target="license" present={o.hasLicenseImage} />
            </Space>
          </Space>
        ) : null}
      </div>
    </Drawer>
  );
}
