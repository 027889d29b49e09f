import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { CASE_STATUS_COLORS } from '../lib/statusColors';

export function CaseStatusTag({ status }: { status: string }) {
  const { t } = useTranslation('cases');
  return (
    <Tag color={CASE_STATUS_COLORS[status] ?? 'default'} data-status={status}>
      {t(`status.${status}`, { defaultValue: status })}
    </Tag>
  );
}

export function TreatmentTags({ treatments }: { treatments: readonly string[] }) {
  const { t } = useTranslation('cases');
  return (
    <>
      {treatments.map((tr) => (
        <Tag key={tr}>{t(`treatment.${tr}`, { defaultValue: tr })}</Tag>
      ))}
    </>
  );
}
