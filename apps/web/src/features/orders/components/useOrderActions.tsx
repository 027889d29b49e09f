import { useState } from 'react';
import { Alert, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { confirmAction, confirmDanger } from '../../../lib/confirm';
import type { OrderAction, OrderActionInput, OrderActionResults } from '../api/types';
import { useOrderAction } from '../api/useOrderMutations';
import { changedMeanwhile, failedResults } from '../lib/orderRules';
import { RejectDialog } from './RejectDialog';
import { PlainList } from './PlainList';
import { ShipDialog } from './ShipDialog';

/** A refused order with the name it is shown by (named when the answer came, as the selection may be gone later). */
type Failure = OrderActionResults['results'][number] & { name?: string };

/** Actions that cannot be taken back, confirmed before they run (ship and reject ask in their own dialogs). */
const CONFIRMED = ['accept', 'cancel', 'complete'] as const;
type Confirmed = (typeof CONFIRMED)[number];
const isConfirmed = (a: OrderAction): a is Confirmed => (CONFIRMED as readonly string[]).includes(a);

/**
 * Runs an order action on one or many orders, asking first for what it needs (shipping details,
 * a reject reason, a confirmation of what cannot be undone: accept, cancel, confirm receipt). Every order answers
 * for itself: when all went through, a toast says so; when some did not, one dialog lists them with the server's
 * reason and counts the rest. `element` holds the dialogs.
 * Either way the orders, cases and dashboard on screen are fetched again before the action counts as
 * done, so its buttons never offer what the order's current status refuses.
 */
export function useOrderActions({
  nameOf,
  onDone,
}: { nameOf?: (orderCode: string) => string | undefined; onDone?: () => void } = {}) {
  const { t } = useTranslation('orders');
  const [asking, setAsking] = useState<{ action: 'ship' | 'reject'; codes: string[] } | null>(null);
  const [failures, setFailures] = useState<{ list: Failure[]; done: string | null } | null>(null);
  /** "Order accepted" for one order, "Orders accepted: 3" for several. */
  const doneText = (action: OrderAction, count: number) =>
    count === 1 ? t(`doneOne.${action}`) : t(`done.${action}`, { count });

  // The hook reloads the orders, cases and dashboard either way, and stays busy until they are on screen.
  const run = useOrderAction({
    onSuccess: (res, body) => {
      setAsking(null);
      const failed = failedResults(res);
      const done = res.results.length - failed.length;
      // One feedback per action: a toast when every order went through, else the dialog, which also counts the rest.
      if (failed.length > 0)
        setFailures({
          list: failed.map((f) => ({ ...f, name: nameOf?.(f.orderCode) })),
          done: done > 0 ? doneText(body.action, done) : null,
        });
      else notify.success(doneText(body.action, done));
      onDone?.();
    },
  });

  const start = (action: OrderAction, orderCodes: string[]) => {
    if (orderCodes.length === 0) return;
    if (action === 'ship' || action === 'reject') {
      setAsking({ action, codes: orderCodes });
    } else if (isConfirmed(action)) {
      const one = orderCodes.length === 1;
      const name = one ? nameOf?.(orderCodes[0]!) : undefined;
      (action === 'cancel' ? confirmDanger : confirmAction)({
        title: one ? t(`confirmOne.${action}`) : t(`confirm.${action}`, { count: orderCodes.length }),
        content: [name, t(`confirmHint.${action}`)].filter(Boolean).join(' — '),
        okText: t(`action.${action}`),
        cancelText: t('common:back'),
        okTestId: action === 'cancel' ? 'order-cancel-confirm' : `order-${action}-confirm`,
        onOk: () => run.mutateAsync({ orderCodes, action }),
      });
    } else {
      run.mutate({ orderCodes, action });
    }
  };

  const submit = (extra: Omit<OrderActionInput, 'orderCodes' | 'action'>) => {
    if (asking) run.mutate({ orderCodes: asking.codes, action: asking.action, ...extra });
  };

  const element = (
    <>
      <ShipDialog
        open={asking?.action === 'ship'}
        count={asking?.codes.length ?? 0}
        busy={run.isPending}
        onClose={() => setAsking(null)}
        onSubmit={(v) => submit(v)}
      />
      <RejectDialog
        open={asking?.action === 'reject'}
        count={asking?.codes.length ?? 0}
        busy={run.isPending}
        onClose={() => setAsking(null)}
        onSubmit={(reason) => submit({ reason })}
      />
      <Modal
        open={failures !== null}
        title={
          failures?.list.length === 1
            ? t('failures.titleOne')
            : t('failures.title', { count: failures?.list.length ?? 0 })
        }
        onCancel={() => setFailures(null)}
        onOk={() => setFailures(null)}
        okText={t('failures.close')}
        cancelButtonProps={{ style: { display: 'none' } }}
        destroyOnHidden
      >
        {failures?.done ? (
          <Alert
            type="success"
            showIcon
            style={{ marginBottom: 12 }}
            title={failures.done}
            data-testid="order-action-done"
          />
        ) : null}
        {failures && changedMeanwhile(failures.list) ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            title={t('failures.changed')}
            data-testid="order-action-changed"
          />
        ) : null}
        <PlainList
          data-testid="order-action-failures"
          items={failures?.list ?? []}
          itemKey={(f) => f.orderCode}
          itemProps={(f) => ({ 'data-testid': `order-action-failure-${f.orderCode}` })}
          renderItem={(f) => (
            <>
              <Typography.Text strong>{f.name ?? f.orderCode}</Typography.Text>
              <Typography.Text type="danger">{f.msg}</Typography.Text>
            </>
          )}
        />
      </Modal>
    </>
  );

  return { start, element, busyAction: run.isPending ? (run.variables?.action ?? null) : null };
}
