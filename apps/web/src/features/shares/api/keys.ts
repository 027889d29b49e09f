import type { ShareableType } from './shares';

/** Query keys of the shares feature, as prefixes: revoking or making a share invalidates `lists`. */
export const shareKeys = {
  all: ['shares'] as const,
  lists: ['shares', 'list'] as const,
  list: (type: ShareableType, code: string) => ['shares', 'list', type, code] as const,
  log: (shareCode: string, page: number) => ['shares', 'log', shareCode, page] as const,
};
