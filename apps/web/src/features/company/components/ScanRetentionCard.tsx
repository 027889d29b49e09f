import { Button, Card, Form, InputNumber, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Permission, SCAN_RETENTION_DAYS, type CompanyInfo } from '@portal/contracts';
import { Access } from '../../../components/Access';
import { notify } from '../../../lib/notify';
import { useEditScanRetention } from '../api/useEditScanRetention';

/** A clinic's choice of how long after completion its laboratories may still download the patient's scans. */
export function ScanRetentionCard({ company, editable }: { company: CompanyInfo; editable: boolean }) {
  const { t } = useTranslation('retention');
  const save = useEditScanRetention({ onSuccess: () => notify.success(t('common:saved')) });
  const { min, max } = SCAN_RETENTION_DAYS;
  return (
    <Card title={t('title')} data-testid="scan-retention">
      <Typography.Paragraph type="secondary">
        {t('help', { default: SCAN_RETENTION_DAYS.default })}
      </Typography.Paragraph>
      <Form<{ days: number }>
        layout="vertical"
        initialValues={{ days: company.scanRetentionDays }}
        onFinish={(v) => save.mutate(v.days)}
      >
        <Form.Item
          name="days"
          label={t('days')}
          rules={[{ required: true, type: 'integer', min, max, message: t('range', { min, max }) }]}
        >
          <InputNumber data-testid="scan-retention-days" min={min} max={max} precision={0} disabled={!editable} />
        </Form.Item>
        <Access permission={Permission.CompanyEdit}>
          <Button htmlType="submit" loading={save.isPending} data-testid="scan-retention-save">
            {t('common:save')}
          </Button>
        </Access>
      </Form>
    </Card>
  );
}
