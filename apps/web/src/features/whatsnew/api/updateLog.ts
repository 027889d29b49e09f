import type {
  SaveUpdateLogBody,
  UpdateLogAdminPage,
  UpdateLogDetail,
  UpdateLogEntry,
  UpdateLogMark,
  UpdateLogPage,
} from '@portal/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { whatsNewKeys } from './keys';

/** Public: readable without signing in (the /whatsnew page). The `lang` header picks the text's language. */
export const getUpdateLog = (pageSize = 20) => http.post<UpdateLogPage>('software/get_update_log', { pageSize });
export const getUpdateLogEntry = (id: number) =>
  http.post<UpdateLogEntry>('software/get_update_log_detail', { id }, { silent: true });

/** How often the header asks whether there is a newer entry. */
const MARK_POLL_MS = 5 * 60_000;
/** Silent: the mark is a hint; a failed poll must not toast. */
export const markQuery = () =>
  queryOptions({
    queryKey: whatsNewKeys.mark,
    queryFn: () => http.write<UpdateLogMark>('software/update_log_mark', {}, { silent: true }),
    refetchInterval: MARK_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  });
export const markRead = (id: number) => http.write<UpdateLogMark>('software/update_log_read', { id }, { silent: true });

export const listUpdateLogAdmin = (pageNum: number, pageSize: number) =>
  http.post<UpdateLogAdminPage>('software/update_log/listByPage', { pageNum, pageSize });
export const getUpdateLogDetail = (id: number) => http.post<UpdateLogDetail>('software/update_log/detail', { id });
export const saveUpdateLog = (body: SaveUpdateLogBody) =>
  http.write<UpdateLogDetail>('software/update_log/save_or_update', body);
export const deleteUpdateLog = (ids: number[]) =>
  http.write<{ count: number }>('software/update_log/delByIds', { ids });
