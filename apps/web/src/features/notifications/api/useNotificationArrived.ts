import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { invalidateWork } from '../../orders/api/keys';
import { notificationKeys } from './keys';

/**
 * What to call when the unread count tells a notification arrived. Notifications name an order (its code): several
 * may have come since the last poll, so rather than the one named by `latest`, every order, its case and the
 * dashboard are refreshed, and the notification lists (an open drawer shows them too).
 */
export function useNotificationArrived(): () => void {
  const qc = useQueryClient();
  return useCallback(() => {
    void qc.invalidateQueries({ queryKey: notificationKeys.lists });
    void invalidateWork(qc);
  }, [qc]);
}
