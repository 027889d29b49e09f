import { UserListQuery } from '@portal/contracts';
import { requestCodec } from '../../../lib/listState';

/**
 * The user list in the address (`?keyword=anna&status=1&sortField=account&pageNum=2`), read through the
 * user/listByPage request schema. The organization filter is left out: the screen offers no control for it.
 */
export const userListCodec = requestCodec(UserListQuery.omit({ organizationCode: true }), {
  pageNum: 1,
  pageSize: 20,
  sortField: 'createdAt',
  sortOrder: 'desc',
});
export type UserListState = ReturnType<typeof userListCodec.read>;

/** antd's `sortOrder` for a column from the list's sort. */
export function userColumnSort(
  q: { sortField: string; sortOrder: 'asc' | 'desc' },
  field: string,
): 'ascend' | 'descend' | null {
  if (q.sortField !== field) return null;
  return q.sortOrder === 'asc' ? 'ascend' : 'descend';
}
