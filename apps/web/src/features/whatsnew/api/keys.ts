/** Query keys of the update log, the "what's new" mark and the usage counts. */
export const whatsNewKeys = {
  all: ['whatsnew'] as const,
  mark: ['whatsnew', 'mark'] as const,
  entry: (id: number, lang: string) => ['whatsnew', 'entry', id, lang] as const,
  list: (lang: string) => ['whatsnew', 'list', lang] as const,
  admin: ['whatsnew', 'admin'] as const,
  adminList: (pageNum: number) => ['whatsnew', 'admin', 'list', pageNum] as const,
  adminDetail: (id: number) => ['whatsnew', 'admin', 'detail', id] as const,
  usage: (weeks: number) => ['whatsnew', 'usage', weeks] as const,
};
