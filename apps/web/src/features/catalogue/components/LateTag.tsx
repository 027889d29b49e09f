import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { isOrderLate } from '@portal/contracts';
import { formatDate } from '../../../lib/dates';
import { localToday } from '../../../lib/dates';

/** "Late" beside an order the laboratory still owes past its estimated or requested delivery date. */
export function LateTag({
  order,
}: {
  order: { status: string; estimatedDeliveryDate: string | null; requestedDeliveryDate: string | null };
}) {
  const { t } = useTranslation('catalogue');
  if (!isOrderLate(order, localToday())) return null;
  const due = [order.estimatedDeliveryDate, order.requestedDeliveryDate]
    .filter((d): d is string => Boolean(d))
    .sort()[0]!;
  return (
    <Tooltip title={t('late.hint', { date: formatDate(due) })}>
      <Tag color="red" data-testid="order-late">
        {t('late.tag')}
      </Tag>
    </Tooltip>
  );
}
