import { Button, Modal, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useBackClose } from '../../../../lib/useBackClose';
import type { OrderDetail } from '../../api/types';
import { ORDER_LIST_PATH, orderDetailPath } from '../../lib/paths';

/**
 * After sending, the one feedback of the send: open the order (one case) or the order list (several), or stay.
 */
export function SentResult({
  orders,
  onClose,
  onOpen,
}: {
  orders: OrderDetail[] | null;
  onClose: () => void;
  onOpen: (path: string) => void;
}) {
  const { t } = useTranslation('orders');
  const open = orders !== null;
  useBackClose(open, onClose);
  const single = orders?.length === 1 ? orders[0]! : null;
  return (
    <Modal open={open} footer={null} onCancel={onClose} destroyOnHidden>
      <Result
        status="success"
        data-testid="send-done"
        title={single ? t('send.sentOne') : t('send.sent', { count: orders?.length ?? 0 })}
        subTitle={single ? t('send.sentTo', { lab: single.lab.name }) : undefined}
        extra={[
          single ? (
            <Button
              key="order"
              type="primary"
              data-testid="send-open-order"
              onClick={() => onOpen(orderDetailPath(single.orderCode))}
            >
              {t('send.openOrder')}
            </Button>
          ) : (
            <Button key="list" type="primary" data-testid="send-open-list" onClick={() => onOpen(ORDER_LIST_PATH)}>
              {t('send.openList')}
            </Button>
          ),
          <Button key="stay" onClick={onClose} data-testid="send-stay">
            {t('send.stay')}
          </Button>,
        ]}
      />
    </Modal>
  );
}
