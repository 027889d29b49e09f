import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { SysMsg } from '@portal/contracts';
import { dashboardKeys } from '../../dashboard/api/keys';
import { chatConversationPath, orderDetailPath } from '../lib/paths';
import { notificationKeys } from './keys';
import { readMsg, type ReadMsgBody } from './readMsg';

/** Marks notifications read, then refreshes the unread count, the lists and the dashboard's unread figure. */
export function useReadMsg(onDone?: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ReadMsgBody) => readMsg(body),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: notificationKeys.all });
      void qc.invalidateQueries({ queryKey: dashboardKeys.index });
      onDone?.();
    },
  });
}

/**
 * Opening a notification: it becomes read (when it was not) and its order opens (a chat notice: its conversation). Resolves once the
 * navigation is done, so a drawer closes after it (its back-button entry is then left alone).
 */
export function useOpenNotification() {
  const navigate = useNavigate();
  const read = useReadMsg();
  return async (msg: SysMsg): Promise<void> => {
    if (!msg.read) read.mutate({ ids: [msg.id] });
    await navigate(msg.subject === 'chat' ? chatConversationPath(msg.code) : orderDetailPath(msg.code));
  };
}
