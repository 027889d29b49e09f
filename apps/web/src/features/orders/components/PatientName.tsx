import { Tooltip, Typography } from 'antd';
import EyeInvisibleOutlined from '@ant-design/icons/EyeInvisibleOutlined';
import { useTranslation } from 'react-i18next';

/** The laboratory sees no patient name unless the clinic shared it: say so instead of leaving a gap. */
export function PatientName({ name }: { name: string | null }) {
  const { t } = useTranslation('orders');
  if (name) return <>{name}</>;
  return (
    <Tooltip title={t('patientHiddenHint')}>
      <Typography.Text type="secondary" data-testid="patient-hidden">
        <EyeInvisibleOutlined aria-hidden /> {t('patientHidden')}
      </Typography.Text>
    </Tooltip>
  );
}
