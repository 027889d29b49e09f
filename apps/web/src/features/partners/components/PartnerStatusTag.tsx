import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { colorGroupOf, tagColorOf } from '../lib/partnerRules';

export function PartnerStatusTag({ status }: { status: number }) {
  const { t } = useTranslation('partners');
  return (
    <Tag
      color={tagColorOf(status)}
      data-testid="partner-status"
      data-status={status}
      data-group={colorGroupOf(status) ?? ''}
    >
      {t(`status.${status}`, { defaultValue: String(status) })}
    </Tag>
  );
}
