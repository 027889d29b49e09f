import { Table, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { usePageInRange } from '../lib/listState';
import { listLoading } from '../lib/listLoading';

interface Page {
  pageNum: number;
  pageSize: number;
}

/**
 * The table of a server-paged list: its rows and total from the list's query, the pager showing the list state,
 * data attributes per row (test ids, statuses) and a table that scrolls inside itself on a narrow screen.
 */
export function ListTable<R extends object>(
  props: Omit<TableProps<R>, 'dataSource' | 'pagination' | 'loading' | 'onRow'> & {
    list: { data?: { list: R[]; total: number }; isFetching: boolean; isPlaceholderData?: boolean };
    page: Page;
    onPage: (page: Page) => void;
    rowAttributes: (row: R) => Record<`data-${string}`, string | number | undefined>;
    showTotal?: (total: number) => ReactNode;
  },
) {
  const { list, page, onPage, rowAttributes, showTotal, ...table } = props;
  usePageInRange(page, list, (pageNum) => onPage({ pageNum, pageSize: page.pageSize }));
  return (
    <Table<R>
      size="middle"
      scroll={{ x: 'max-content' }}
      {...table}
      loading={listLoading(list)}
      dataSource={list.data?.list ?? []}
      onRow={(row) => rowAttributes(row) as React.HTMLAttributes<HTMLElement>}
      pagination={{
        current: page.pageNum,
        pageSize: page.pageSize,
        total: list.data?.total ?? 0,
        showTotal,
        onChange: (pageNum, pageSize) => onPage({ pageNum, pageSize }),
      }}
    />
  );
}
