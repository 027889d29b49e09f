/** The detail route of a case (menu path /case-management/detail/:id). */
export function caseDetailPath(caseCode: string): string {
  return `/case-management/detail/${encodeURIComponent(caseCode)}`;
}
export const CASE_LIST_PATH = '/case-management';
