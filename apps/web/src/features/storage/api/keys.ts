/** Query keys of the storage feature: what frees or takes space (a case, a file, the recycle bin) invalidates `all`. */
export const storageKeys = {
  all: ['storage'] as const,
  usage: ['storage', 'usage'] as const,
};
