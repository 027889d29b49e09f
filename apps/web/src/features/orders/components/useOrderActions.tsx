import { useState } from 'react';
import { Alert, Modal, Typography } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { confirmDanger } from '../../../lib/confirm';
import { invalidateWork } from '../api/keys';
import { orderAction } from '../api/orderAction';
import type { OrderAction, OrderActionInput, OrderActionResults } from '../api/types';
import { changedMeanwhile, failedResults } from '../lib/orderRules';
import { RejectDialog } from './RejectDialog';
import { PlainList } from './PlainList';
import { ShipDialog } from './ShipDialog';

/** A refused order with the name it is shown by (named when the answer came, as the selection may be gone later). */
type Failure = OrderActionResults['results'][number] & { name?: string };

/**
 * Runs an order action on one or many orders, asking first for what it needs (shipping details,
 * a reject reason, a confirmation to cancel). Every order answers for itself: the successes are
 * counted in a toast, the failures listed with the server's reason. `element` holds the dialogs.
 * Either way the orders, cases and dashboard on screen are fetched again before the action counts as
 * done, so its buttons never offer what the order's current status refuses.
 */
export function useOrderActions({
  nameOf,
  onDone,
}: { nameOf?: (orderCode: string) => string | undefined; onDone?: () => void } = {}) {
  const { t } = useTranslation('orders');
  const qc = useQueryClient();
  const [asking, setAsking] = useState<{ action: 'ship' | 'reject'; codes: string[] } | null>(null);
  const [failures, setFailures] = useState<Failure[] | null>(null);

  const run = useMutation({
    mutationFn: orderAction,
    onSuccess: (res, body) => {
      setAsking(null);
      const failed = failedResults(res);
      const done = res.results.length - failed.length;
      if (done > 0) notify.success(t(`done.${body.action}`, { count: done }));
      if (failed.length > 0) setFailures(failed.map((f) => ({ ...f, name: nameOf?.(f.orderCode) })));
      onDone?.();
    },
    // The orders may have moved meanwhile (the other side acted): reload either way, and stay busy until the
    // current statuses are on screen. Cases follow their orders; the dashboard counts both.
    onSettled: () => invalidateWork(qc),
  });

  const start = (action: OrderAction, orderCodes: string[]) => {
    if (orderCodes.length === 0) return;
    if (action === 'ship' || action === 'reject') {
      setAsking({ action, codes: orderCodes });
    } else if (action === 'cancel') {
      confirmDanger({
        title: t('cancelConfirm', { count: orderCodes.length }),
        content: t('cancelHint'),
        okText: t('action.cancel'),
        cancelText: t('common:back'),
        okTestId: 'order-cancel-confirm',
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
        title={t('failures.title', { count: failures?.length ?? 0 })}
        onCancel={() => setFailures(null)}
        onOk={() => setFailures(null)}
        okText={t('failures.close')}
        cancelButtonProps={{ style: { display: 'none' } }}
        destroyOnHidden
      >
        {failures && changedMeanwhile(failures) ? (
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
          items={failures ?? []}
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
