import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { CaseListQuery } from '@portal/contracts';
import { paramsToQuery, readDateRange, writeListParams, type ListCodec } from '../../../lib/listState';
import type { CaseQuery } from '../api/types';

export const SORT_FIELDS = ['scanDate', 'createdAt', 'patientName', 'name'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export type SortOrder = 'desc' | 'asc';

/** What the filter bar holds; mapped to the list request by `toCaseListQuery`. */
export interface CaseFilters {
  range: [Dayjs, Dayjs] | null;
  status?: string;
  treatment?: string;
  dentistId?: number;
  keyword?: string;
}

export interface CaseListState {
  filters: CaseFilters;
  pageNum: number;
  pageSize: number;
  sortField: SortField;
  sortOrder: SortOrder;
}

/** The last `days` days up to today (local preferences caseDateRangeDays). */
export function defaultRange(days: number, now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const n = Number.isFinite(days) && days > 0 ? Math.floor(days) : 30;
  return [now.subtract(n, 'day').startOf('day'), now.endOf('day')];
}

export function initialListState(days: number, now?: Dayjs): CaseListState {
  return {
    filters: { range: defaultRange(days, now) },
    pageNum: 1,
    pageSize: 20,
    sortField: 'scanDate',
    sortOrder: 'desc',
  };
}

/** Filter bar + paging + sort → the case/list body; empty values are left out. */
export function toCaseListQuery(s: CaseListState): CaseQuery {
  const q: CaseQuery = { pageNum: s.pageNum, pageSize: s.pageSize, sortField: s.sortField, sortOrder: s.sortOrder };
  const { range, status, treatment, dentistId, keyword } = s.filters;
  if (range) {
    q.dateFrom = range[0].format('YYYY-MM-DD');
    q.dateTo = range[1].format('YYYY-MM-DD');
  }
  if (status) q.status = status as CaseQuery['status'];
  if (treatment) q.treatment = treatment as CaseQuery['treatment'];
  if (dentistId) q.dentistId = dentistId;
  const kw = keyword?.trim();
  if (kw) q.keyword = kw;
  return q;
}

/** antd Table sorter → sortField/sortOrder; no sort falls back to the newest scan first. */
export function sorterToSort(
  columnKey: unknown,
  order: 'ascend' | 'descend' | null | undefined,
): { sortField: SortField; sortOrder: SortOrder } {
  if (!order || typeof columnKey !== 'string' || !(SORT_FIELDS as readonly string[]).includes(columnKey)) {
    return { sortField: 'scanDate', sortOrder: 'desc' };
  }
  return { sortField: columnKey as SortField, sortOrder: order === 'ascend' ? 'asc' : 'desc' };
}

/** antd's `sortOrder` for a column from the current state. */
export function columnSortOrder(
  s: Pick<CaseListState, 'sortField' | 'sortOrder'>,
  field: SortField,
): 'ascend' | 'descend' | null {
  if (s.sortField !== field) return null;
  return s.sortOrder === 'asc' ? 'ascend' : 'descend';
}

/**
 * The case list in the address (`?status=uploaded&pageNum=2`), read through the case/list request schema; what is
 * missing or refused takes its default, the dates the reader's default range (`days`).
 */
export function caseListCodec(days: number): ListCodec<CaseListState> {
  return {
    read(params) {
      const initial = initialListState(days);
      const q = paramsToQuery(params, CaseListQuery);
      const range = readDateRange(params, q, initial.filters.range);
      return {
        filters: { range, status: q.status, treatment: q.treatment, dentistId: q.dentistId, keyword: q.keyword },
        pageNum: q.pageNum ?? initial.pageNum,
        pageSize: q.pageSize ?? initial.pageSize,
        sortField: q.sortField ?? initial.sortField,
        sortOrder: q.sortOrder ?? initial.sortOrder,
      };
    },
    write(state) {
      return writeListParams(
        { ...toCaseListQuery(state) },
        { ...toCaseListQuery(initialListState(days)) },
        state.filters.range,
      );
    },
  };
}
