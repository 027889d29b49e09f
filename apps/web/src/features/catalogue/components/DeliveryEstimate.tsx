import { Alert, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/dates';
import { estimateQuery } from '../api/catalogue';
import { formatLongDate } from '../lib/format';

/**
 * When the order would be delivered if sent now: the product's turnaround counted in the laboratory's working days
 * (its weekends and closed dates skipped). Warns when the clinic asks for an earlier date than that.
 */
export function DeliveryEstimate({
  partnerCode,
  productCode,
  requestedDate,
}: {
  partnerCode: string | undefined;
  productCode: string | undefined;
  /** The requested delivery date, 'YYYY-MM-DD'. */
  requestedDate?: string | null;
}) {
  const { t } = useTranslation('catalogue');
  const enabled = Boolean(partnerCode && productCode);
  const estimate = useQuery({ ...estimateQuery(partnerCode ?? '', productCode ?? ''), enabled });
  if (!enabled) return null;
  if (estimate.isPending) return <Skeleton.Input active size="small" />;
  if (!estimate.data) return null;
  const { estimatedDeliveryDate, turnaroundDays } = estimate.data;
  const written = formatLongDate(estimatedDeliveryDate);
  const tooEarly = Boolean(requestedDate && requestedDate < estimatedDeliveryDate);
  return (
    <Alert
      type={tooEarly ? 'warning' : 'success'}
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="send-estimate"
      data-date={estimatedDeliveryDate}
      title={t('estimate.title', { date: written })}
      description={
        tooEarly
          ? t('estimate.tooEarly', { n: turnaroundDays, requested: formatDate(requestedDate) })
          : t('estimate.detail', { n: turnaroundDays })
      }
    />
  );
}
