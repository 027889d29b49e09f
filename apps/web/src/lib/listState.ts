import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { UNSAFE_DataRouterContext, useSearchParams } from 'react-router';
import type { z } from 'zod';

type Flat = Record<string, string | number | boolean | undefined>;

/**
 * A list request as address parameters: every value the list sends, except those equal to its default (so an
 * untouched list has a clean address).
 */
export function queryToParams(query: Flat, defaults: Flat = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '' && value !== defaults[key]) params.set(key, String(value));
  return params;
}

/**
 * Address parameters read through the list's request schema (contracts): each parameter the schema takes, as the
 * schema reads it (a number or a flag from its text); one it refuses is left out, so a hand-edited or outdated link
 * opens the list with that filter at its default instead of failing.
 */
export function paramsToQuery<S extends z.ZodObject>(params: URLSearchParams, schema: S): Partial<z.infer<S>> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const text = params.get(key);
    if (text === null) continue;
    const candidates: unknown[] = [text];
    if (/^-?\d+(\.\d+)?$/.test(text)) candidates.unshift(Number(text));
    if (text === 'true' || text === 'false') candidates.unshift(text === 'true');
    for (const value of candidates) {
      const parsed = field.safeParse(value);
      if (parsed.success && parsed.data !== undefined) {
        out[key] = parsed.data;
        break;
      }
    }
  }
  return out as Partial<z.infer<S>>;
}

/** "range=all": the reader cleared the dates (no range is not the default range, which the address leaves out). */
const ALL_DATES = 'all';
type DateRange = [Dayjs, Dayjs] | null;

/** A list's date range from the address: cleared, the days given (a valid, ordered pair), or the default. */
export function readDateRange(
  params: URLSearchParams,
  q: { dateFrom?: string; dateTo?: string },
  fallback: DateRange,
): DateRange {
  if (params.get('range') === ALL_DATES) return null;
  return q.dateFrom && q.dateTo && q.dateFrom <= q.dateTo
    ? [dayjs(q.dateFrom).startOf('day'), dayjs(q.dateTo).endOf('day')]
    : fallback;
}

/** A list request in the address, its defaults left out; cleared dates marked so they read back as cleared. */
export function writeListParams(query: Flat, defaults: Flat, range: DateRange): URLSearchParams {
  const params = queryToParams(query, defaults);
  if (!range) params.set('range', ALL_DATES);
  return params;
}

export interface ListCodec<S> {
  read(params: URLSearchParams): S;
  write(state: S): URLSearchParams;
  /**
   * The parameters this list writes. Given, a change keeps every other one (the tab of the page around the list);
   * without it the list owns the whole address.
   */
  owns?(key: string): boolean;
}

/**
 * A list whose state is its request as the contracts schema reads it (page, sort, filters): each parameter read
 * through `paramsToQuery`, what is missing or refused taking its value in `defaults`, the defaults left out of the
 * address. A `prefix` keeps a list apart from another on the same page (`device.pageNum`).
 */
export function requestCodec<S extends z.ZodObject>(
  schema: S,
  defaults: z.infer<S>,
  prefix = '',
): ListCodec<z.infer<S>> {
  const keys = new Set(Object.keys(schema.shape));
  return {
    read(params) {
      const own = new URLSearchParams();
      for (const [key, value] of params)
        if (key.startsWith(prefix) && keys.has(key.slice(prefix.length))) own.set(key.slice(prefix.length), value);
      return { ...defaults, ...paramsToQuery(own, schema) };
    },
    write(state) {
      const out = new URLSearchParams();
      for (const [key, value] of queryToParams(state as Flat, defaults as Flat))
        if (keys.has(key)) out.set(prefix + key, value);
      return out;
    },
    owns: (key) => key.startsWith(prefix) && keys.has(key.slice(prefix.length)),
  };
}

/**
 * A list's page, sort and filters kept in the address: going back from a detail returns to the same list, and a
 * filtered list can be passed on as a link. Same shape as useState; changes replace the address entry (paging
 * through a list does not fill the history).
 */
export function useListState<S>(codec: ListCodec<S>): [S, (next: S | ((current: S) => S)) => void] {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // The address text, not the params object (a new one each render), is what the state depends on.
  const state = useMemo(() => codec.read(new URLSearchParams(key)), [key, codec]);
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const setState = useCallback(
    (next: S | ((current: S) => S)) =>
      setParams(
        (rendered) => {
          // react-router hands over the params of the last render. A click that lands while the previous change
          // is still rendering (a slow phone, a busy tab) would build on them and drop that change; the router's own
          // location is already the new one.
          const current = router ? new URLSearchParams(router.state.location.search) : rendered;
          const value = typeof next === 'function' ? (next as (c: S) => S)(codec.read(current)) : next;
          const written = codec.write(value);
          if (!codec.owns) return written;
          const kept = new URLSearchParams();
          for (const [key, text] of current) if (!codec.owns(key)) kept.append(key, text);
          for (const [key, text] of written) kept.set(key, text);
          return kept;
        },
        { replace: true },
      ),
    [setParams, codec, router],
  );
  return [state, setState];
}

/**
 * The text of a search box whose committed search lives in the address: typing changes only the box, and the box
 * follows the address when it changes under it (back, a menu link to the bare list).
 */
export function useSearchText(committed: string | undefined): [string, (text: string) => void] {
  const [text, setText] = useState(committed ?? '');
  const [seen, setSeen] = useState(committed);
  if (seen !== committed) {
    setSeen(committed);
    setText(committed ?? '');
  }
  return [text, setText];
}

/**
 * A page past the end of its list (a link kept after rows were removed, the last row of the last page deleted)
 * moves to the list's last page once the list's total for the current request is known: not while it loads, nor
 * while it shows the previous request's rows.
 */
export function usePageInRange(
  page: { pageNum: number; pageSize: number },
  list: { data?: { total: number }; isPlaceholderData?: boolean },
  moveTo: (pageNum: number) => void,
): void {
  const total = list.isPlaceholderData ? undefined : list.data?.total;
  const last = total === undefined ? undefined : Math.max(1, Math.ceil(total / page.pageSize));
  const move = useRef(moveTo);
  move.current = moveTo;
  useEffect(() => {
    if (last !== undefined && page.pageNum > last) move.current(last);
  }, [last, page.pageNum]);
}
