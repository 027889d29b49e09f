import type { Dispatch, ReactNode, SetStateAction } from 'react';
import type { TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';

interface PagedState {
  pageNum: number;
  pageSize: number;
}

/**
 * The paging and sorting props of a table over a server-paged list: the pager shows the list state, and a change
 * moves it (a new sort starts again at page 1). `sortOf` turns antd's sorter into the state's sort fields.
 */
export function pagedTable<R, S extends PagedState>(opts: {
  state: S;
  setState: Dispatch<SetStateAction<S>>;
  total: number;
  showTotal: (total: number) => ReactNode;
  sortOf: (sorter: SorterResult<R> | undefined) => Partial<S>;
}): Pick<TableProps<R>, 'onChange' | 'pagination'> {
  const { state, setState, total, showTotal, sortOf } = opts;
  return {
    onChange: (pagination, _filters, sorter, extra) => {
      const sort = sortOf(Array.isArray(sorter) ? sorter[0] : sorter);
      setState((prev) => ({
        ...prev,
        ...sort,
        pageNum: extra.action === 'sort' ? 1 : (pagination.current ?? 1),
        pageSize: pagination.pageSize ?? prev.pageSize,
      }));
    },
    pagination: { current: state.pageNum, pageSize: state.pageSize, total, showSizeChanger: true, showTotal },
  };
}
