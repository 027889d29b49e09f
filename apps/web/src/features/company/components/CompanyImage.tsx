import { useEffect, useRef, useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { COMPANY_IMAGE_MAX_BYTES, type CompanyImageTarget } from '@portal/contracts';
import { notify } from '../../../lib/notify';
import { companyImageUrl, companyKeys } from '../api/company';
import { useUploadCompanyImage } from '../api/useCompanyImage';

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

/** The logo or the business licence image: shown when stored, replaced by choosing a file (checked by the server). */
export function CompanyImage({
  target,
  present,
  editable,
}: {
  target: CompanyImageTarget;
  present: boolean;
  editable: boolean;
}) {
  const { t } = useTranslation('company');
  const upload = useUploadCompanyImage(target);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const image = useQuery({
    queryKey: companyKeys.image(target),
    queryFn: () => companyImageUrl(target),
    enabled: present,
    staleTime: Infinity,
    gcTime: 0,
  });
  useEffect(() => () => void (image.data && URL.revokeObjectURL(image.data)), [image.data]);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > COMPANY_IMAGE_MAX_BYTES) {
      notify.error(t('images.tooLarge', { mb: COMPANY_IMAGE_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    setBusy(true);
    try {
      await upload(file);
      notify.success(t('common:saved'));
    } catch {
      /* reported by the http client */
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  const label = t(`images.${target}`);
  return (
    <div style={{ marginBottom: 16 }} data-testid={`company-image-${target}`}>
      <Typography.Text strong>{label}</Typography.Text>
      <div style={{ margin: '8px 0' }}>
        {image.data ? (
          <img src={image.data} alt={label} style={{ maxWidth: '100%', maxHeight: 160, objectFit: 'contain' }} />
        ) : (
          <Typography.Text type="secondary">{t('images.none')}</Typography.Text>
        )}
      </div>
      {editable ? (
        <Space>
          <input
            ref={input}
            type="file"
            accept={ACCEPT}
            hidden
            aria-label={label}
            data-testid={`company-image-input-${target}`}
            onChange={(e) => void choose(e.target.files?.[0])}
          />
          <Button icon={<UploadOutlined aria-hidden />} loading={busy} onClick={() => input.current?.click()}>
            {t('images.choose')}
          </Button>
          <Typography.Text type="secondary">
            {t('images.hint', { mb: COMPANY_IMAGE_MAX_BYTES / 1024 / 1024 })}
          </Typography.Text>
        </Space>
      ) : null}
    </div>
  );
}
