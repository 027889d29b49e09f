import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OrderStatus } from '../api/types';
import { STATUS_COLORS } from '../lib/orderRules';

/** The order's status; an accepted order the laboratory has started shows "In production" beside it. */
export function OrderStatusTag({ status, processing }: { status: OrderStatus; processing?: boolean }) {
  const { t } = useTranslation('orders');
  return (
    <span
      data-testid="order-status"
      data-status={status}
      data-processing={processing ? 'true' : 'false'}
      style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 4 }}
    >
      <Tag color={STATUS_COLORS[status] ?? 'default'}>{t(`status.${status}`, { defaultValue: status })}</Tag>
      {processing && status === 'accepted' ? <Tag color="geekblue">{t('processing')}</Tag> : null}
    </span>
  );
}
