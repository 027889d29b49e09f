import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const STATUS_COLORS: Record<string, string> = {
  registered: 'default',
  toBeProgressed: 'gold',
  scanCompleted: 'cyan',
  uploaded: 'blue',
  ordered: 'geekblue',
  completed: 'green',
  sent: 'purple',
  notSent: 'orange',
  accepted: 'green',
  rejected: 'red',
};

export function CaseStatusTag({ status }: { status: string }) {
  const { t } = useTranslation('cases');
  return (
    <Tag color={STATUS_COLORS[status] ?? 'default'} data-status={status}>
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
