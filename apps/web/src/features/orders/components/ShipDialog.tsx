import { DatePicker, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { useBackClose } from '../../../lib/useBackClose';

export interface ShipValues {
  trackingNumber: string;
  shipDate: string;
  estimatedDeliveryDate?: string;
}

/** Shipping details for one or more orders: tracking number (required), ship date (today by default), expected delivery. */
export function ShipDialog({
  open,
  count,
  busy,
  onClose,
  onSubmit,
}: {
  open: boolean;
  count: number;
  busy: boolean;
  onClose: () => void;
  onSubmit: (v: ShipValues) => void;
}) {
  const { t } = useTranslation('orders');
  const [form] = Form.useForm<{
    trackingNumber: string;
    shipDate: Dayjs | null;
    estimatedDeliveryDate?: Dayjs | null;
  }>();
  useBackClose(open, onClose);
  const shipDate = Form.useWatch('shipDate', form);
  return (
    <Modal
      open={open}
      title={t('ship.title', { count })}
      okText={t('action.ship')}
      cancelText={t('common:cancel')}
      okButtonProps={{ loading: busy, 'data-testid': 'ship-confirm' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ shipDate: dayjs() }}
        onFinish={(v) =>
          onSubmit({
            trackingNumber: v.trackingNumber.trim(),
            shipDate: (v.shipDate ?? dayjs()).format('YYYY-MM-DD'),
            ...(v.estimatedDeliveryDate ? { estimatedDeliveryDate: v.estimatedDeliveryDate.format('YYYY-MM-DD') } : {}),
          })
        }
      >
        <Form.Item
          name="trackingNumber"
          label={t('field.trackingNumber')}
          rules={[
            { required: true, whitespace: true, message: t('ship.trackingRequired') },
            { max: 80, message: t('tooLong', { n: 80 }) },
          ]}
        >
          <Input data-testid="ship-tracking" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="shipDate"
          label={t('field.shipDate')}
          rules={[{ required: true, message: t('ship.dateRequired') }]}
        >
          <DatePicker data-testid="ship-date" style={{ width: '100%' }} allowClear={false} />
        </Form.Item>
        <Form.Item name="estimatedDeliveryDate" label={t('field.estimatedDeliveryDate')}>
          <DatePicker
            data-testid="ship-eta"
            style={{ width: '100%' }}
            // Delivery cannot come before the parcel leaves.
            disabledDate={(d) => Boolean(shipDate && d.isBefore(shipDate, 'day'))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
