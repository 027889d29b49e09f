/** localStorage with the `portal.` prefix. Access is guarded because private modes may throw. */
export const STORAGE_PREFIX = 'portal.';
export type StorageKey =
  'accessToken' | 'refreshToken' | 'lang' | 'theme' | 'prefs' | 'shareSign' | 'partnerInvitation';
/** Kept when a new sign-in clears everything else (§4 Session). */
// A partner invitation waits through registration, email confirmation and the first sign-in.
export const KEEP_ON_LOGIN: readonly StorageKey[] = ['lang', 'theme', 'prefs', 'partnerInvitation'];

export const storage = {
  get(key: StorageKey): string | null {
    try {
      return localStorage.getItem(STORAGE_PREFIX + key);
    } catch {
      return null;
    }
  },
  set(key: StorageKey, value: string): void {
    try {
      localStorage.setItem(STORAGE_PREFIX + key, value);
    } catch {
      /* storage full or blocked: the value lives for this page only */
    }
  },
  remove(key: StorageKey): void {
    try {
      localStorage.removeItem(STORAGE_PREFIX + key);
    } catch {
      /* ignore */
    }
  },
  /** Clears all of localStorage except the given keys. */
  clearExcept(keep: readonly StorageKey[]): void {
    try {
      const kept = keep.map((k) => [k, localStorage.getItem(STORAGE_PREFIX + k)] as const);
      localStorage.clear();
      for (const [k, v] of kept) if (v !== null) localStorage.setItem(STORAGE_PREFIX + k, v);
    } catch {
      /* ignore */
    }
  },
};
