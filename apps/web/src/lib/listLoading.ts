/** What `listLoading` reads of a query (TanStack's result). */
export interface ListQueryState {
  isFetching: boolean;
  data?: unknown;
  isPlaceholderData?: boolean;
}

/**
 * Whether a list shows its loading veil: only while what it shows is not yet the answer to what the user asked
 * (the first load, another page or filter). A refetch in the background (a live event, the tab shown again, after
 * an action) changes the rows in place under a still screen: a veil there would blur the list at every event and
 * cost each open tab a repaint of the whole table.
 */
export function listLoading(query: ListQueryState): boolean {
  return query.isFetching && (query.data === undefined || Boolean(query.isPlaceholderData));
}
