import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SaveMarginLineBody, ToothStage } from '@portal/contracts';
import { withRefresh, type Reactions } from '../../../lib/mutations';
import { createOrder } from './createOrder';
import { invalidateWork, orderKeys } from './keys';
import { orderAction } from './orderAction';
import { remakeOrder } from './remakeOrder';
import { saveAttachments } from './saveAttachments';
import { saveRequiredFields } from './saveRequiredFields';
import { sendMessage } from './sendMessage';
import { setToothStage } from './toothStage';
import type { OrderActionInput, OrderActionResults, OrderDetail, OrderMessage } from './types';
import { deleteMarginLine, saveMarginLine, type MarginLine } from './viewerMarks';

type Result<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

/**
 * One action on many orders. The orders may have moved meanwhile (the other side acted): every order, case and
 * the dashboard reload either way, and the mutation stays busy until the current statuses are on screen.
 */
export function useOrderAction(reactions?: Reactions<OrderActionResults, OrderActionInput>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { settled: () => invalidateWork(qc) }), mutationFn: orderAction });
}

/** Sends cases to a laboratory as orders; the orders, their cases and the dashboard refresh. */
export function useCreateOrder(reactions?: Reactions<Result<typeof createOrder>, Parameters<typeof createOrder>[0]>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { success: () => void invalidateWork(qc) }),
    mutationFn: createOrder,
  });
}

/** Asks for a remake of an order; the orders and cases reload whatever the answer, busy until they are shown. */
export function useRemakeOrder(reactions?: Reactions<OrderDetail, Parameters<typeof remakeOrder>[0]>) {
  const qc = useQueryClient();
  return useMutation({ ...withRefresh(reactions, { settled: () => invalidateWork(qc) }), mutationFn: remakeOrder });
}

/** The laboratory marks the stage of some teeth; the orders reload whatever the answer, busy until shown. */
export function useSetToothStage(
  orderCode: string,
  reactions?: Reactions<null, { numbers: number[]; to: ToothStage }>,
) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, { settled: () => invalidateWork(qc) }),
    mutationFn: ({ numbers, to }) => setToothStage(orderCode, numbers, to),
  });
}

/** Saves the fields the laboratory requires per work type; every requirement read (the send dialog's too) refreshes. */
export function useSaveRequiredFields(reactions?: Reactions<null, Parameters<typeof saveRequiredFields>[0]>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, {
      success: () => void qc.invalidateQueries({ queryKey: orderKeys.requiredFieldsAll }),
    }),
    mutationFn: saveRequiredFields,
  });
}

/** Adds files to an order; the order's page refreshes. */
export function useSaveAttachments(orderCode: string, reactions?: Reactions<Result<typeof saveAttachments>, File[]>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, {
      success: () => void qc.invalidateQueries({ queryKey: orderKeys.detail(orderCode) }),
    }),
    mutationFn: (files) => saveAttachments(orderCode, files),
  });
}

/**
 * Posts a message on an order's thread, its files uploaded first (the message names them by their codes). The thread
 * refreshes, and the order's page: message files are order attachments too.
 */
export function useSendMessage(
  orderCode: string,
  reactions?: Reactions<OrderMessage, { content: string; files: File[] }>,
) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, {
      success: () => {
        void qc.invalidateQueries({ queryKey: orderKeys.thread(orderCode) });
        void qc.invalidateQueries({ queryKey: orderKeys.detail(orderCode) });
      },
    }),
    mutationFn: async ({ content, files }) => {
      const uploaded = files.length ? (await saveAttachments(orderCode, files)).list : [];
      return sendMessage({ orderCode, content: content.trim(), attachmentCodes: uploaded.map((a) => a.code) });
    },
  });
}

/** Draws a tooth's margin line; the order's lines are read again, whatever the answer. */
export function useSaveMarginLine(orderCode: string, reactions?: Reactions<MarginLine, SaveMarginLineBody>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, {
      settled: () => void qc.invalidateQueries({ queryKey: orderKeys.marginLines(orderCode) }),
    }),
    mutationFn: saveMarginLine,
  });
}

/** Removes a tooth's margin line; the order's lines are read again, whatever the answer. */
export function useDeleteMarginLine(orderCode: string, reactions?: Reactions<null, number>) {
  const qc = useQueryClient();
  return useMutation({
    ...withRefresh(reactions, {
      settled: () => void qc.invalidateQueries({ queryKey: orderKeys.marginLines(orderCode) }),
    }),
    mutationFn: (tooth) => deleteMarginLine(orderCode, tooth),
  });
}
