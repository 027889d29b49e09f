import type { CaseQuery } from './types';
import type { RecycleQuery } from './listRecycleBin';

/**
 * Query keys of the cases feature, as prefixes: invalidating `lists` or `details` reaches every list or every case,
 * whatever its filters. Every cases query takes its key from here.
 */
export const caseKeys = {
  all: ['cases'] as const,
  lists: ['cases', 'list'] as const,
  list: (q: CaseQuery) => ['cases', 'list', q] as const,
  details: ['cases', 'detail'] as const,
  detail: (caseCode: string) => ['cases', 'detail', caseCode] as const,
  /** A patient's live cases (an erasure's choice), by patient ID or name. */
  patient: (keyword: string) => ['cases', 'list', 'patient', keyword] as const,
  erasures: (pageNum: number) => ['cases', 'erasures', pageNum] as const,
  recycle: (q: RecycleQuery) => ['cases', 'recycle', q] as const,
  export: (exportCode: string | null) => ['cases', 'export', exportCode] as const,
  annotations: (caseCode: string) => ['cases', 'annotations', caseCode] as const,
  // Signed links: refetching one while the viewer shows it would load the model again, so only `all` reaches them.
  grant: (fileCode: string) => ['cases', 'grant', fileCode] as const,
};
