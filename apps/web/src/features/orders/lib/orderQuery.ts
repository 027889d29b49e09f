import dayjs, { type Dayjs } from 'dayjs';
import { OrderListQuery } from '@portal/contracts';
import type { ExportFormat, OrderExportInput, OrderQuery, OrderStatus } from '../api/types';
import { localToday } from '../../../lib/dates';
import { paramsToQuery, readDateRange, writeListParams, type ListCodec } from '../../../lib/listState';

export type SortOrder = 'desc' | 'asc';

/** What the filter bar holds; mapped to the list request by `toOrderListQuery`. */
export interface OrderFilters {
  range: [Dayjs, Dayjs] | null;
  status?: OrderStatus;
  orderType?: string;
  partnerCode?: string;
  /** Only the orders late today (the reader's calendar day). */
  lateOnly?: boolean;
}

export interface OrderListState {
  filters: OrderFilters;
  pageNum: number;
  pageSize: number;
  sortOrder: SortOrder;
}

/** The last `days` days up to today (local preference orderDateRangeDays); a bad value means 30. */
export function defaultRange(days: number, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const n = Number.isFinite(days) && days > 0 ? Math.floor(days) : 30;
  return [now.subtract(n, 'day').startOf('day'), now.endOf('day')];
}

export function initialOrderListState(days: number, now?: Dayjs): OrderListState {
  return { filters: { range: defaultRange(days, now) }, pageNum: 1, pageSize: 20, sortOrder: 'desc' };
}

function filterBody(f: OrderFilters): Omit<OrderQuery, 'pageNum' | 'pageSize'> {
  const q: Omit<OrderQuery, 'pageNum' | 'pageSize'> = {};
  if (f.status) q.status = f.status;
  const type = f.orderType?.trim();
  if (type) q.orderType = type;
  if (f.partnerCode) q.partnerCode = f.partnerCode;
  if (f.lateOnly) q.lateOn = localToday();
  if (f.range) {
    q.dateFrom = f.range[0].format('YYYY-MM-DD');
    q.dateTo = f.range[1].format('YYYY-MM-DD');
  }
  return q;
}

/** Filter bar + paging + sort → the order/list body; empty filters are left out. */
export function toOrderListQuery(s: OrderListState): OrderQuery {
  return { pageNum: s.pageNum, pageSize: s.pageSize, sortOrder: s.sortOrder, ...filterBody(s.filters) };
}

/** The same filters and sort without paging: the export holds every matching order. */
export function toOrderExportBody(s: OrderListState, format: ExportFormat): OrderExportInput {
  return { sortOrder: s.sortOrder, ...filterBody(s.filters), format };
}

/** antd's column sort order → the list's; no sort means the newest first. */
export function sortOrderOf(order: 'ascend' | 'descend' | null | undefined): SortOrder {
  return order === 'ascend' ? 'asc' : 'desc';
}

/**
 * The order list in the address, read through the order/list request schema; what is missing or refused takes its
 * default. "Late only" is kept as `lateOn` and read as late on the reader's today (a link opened a day later shows
 * the orders late then).
 */
export function orderListCodec(days: number): ListCodec<OrderListState> {
  return {
    read(params) {
      const initial = initialOrderListState(days);
      const q = paramsToQuery(params, OrderListQuery);
      const range = readDateRange(params, q, initial.filters.range);
      return {
        filters: {
          range,
          status: q.status,
          orderType: q.orderType,
          partnerCode: q.partnerCode,
          lateOnly: q.lateOn ? true : undefined,
        },
        pageNum: q.pageNum ?? initial.pageNum,
        pageSize: q.pageSize ?? initial.pageSize,
        sortOrder: q.sortOrder ?? initial.sortOrder,
      };
    },
    write(state) {
      return writeListParams(
        { ...toOrderListQuery(state) },
        { ...toOrderListQuery(initialOrderListState(days)) },
        state.filters.range,
      );
    },
  };
}
