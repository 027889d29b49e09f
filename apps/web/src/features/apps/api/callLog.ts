import type { z } from 'zod';
import type { AppCallLog, AppCallLogEntry as AppCallLogEntrySchema } from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { appsKeys } from './keys';

export type AppCallLogEntry = z.infer<typeof AppCallLogEntrySchema>;
export const CALL_LOG_PAGE_SIZE = 20;

/** The organization's log of app calls, a page of minutes (newest first). */
export const callLogQuery = (pageNum: number) =>
  queryOptions({
    queryKey: appsKeys.callLog(pageNum),
    queryFn: () => http.post<z.infer<typeof AppCallLog>>('app/callLog', { pageNum, pageSize: CALL_LOG_PAGE_SIZE }),
  });
