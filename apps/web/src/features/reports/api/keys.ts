/** Query keys of the reports feature, as prefixes. */
export const reportKeys = {
  all: ['reports'] as const,
  lists: ['reports', 'list'] as const,
  list: (caseCode: string) => ['reports', 'list', caseCode] as const,
  detail: (reportCode: string) => ['reports', 'detail', reportCode] as const,
  view: (reportCode: string, version?: number) => ['reports', 'view', reportCode, version ?? 0] as const,
  image: (reportCode: string, source: string, code: string) => ['reports', 'image', reportCode, source, code] as const,
  case: (caseCode: string) => ['reports', 'case', caseCode] as const,
  // Signed links of the scans shown: refetching one would load the model again, so only `all` reaches them.
  grant: (fileCode: string) => ['reports', 'grant', fileCode] as const,
};
