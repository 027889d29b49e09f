import { KEEP_ON_LOGIN, STORAGE_PREFIX, storage } from './storage';

const watchers = new Set<() => void>();
const changed = () => watchers.forEach((w) => w());

/** The token pair in localStorage. Only the http client and the session touch it. */
export const tokens = {
  access: () => storage.get('accessToken') ?? '',
  refresh: () => storage.get('refreshToken') ?? '',
  set(accessToken: string, refreshToken: string) {
    storage.set('accessToken', accessToken);
    storage.set('refreshToken', refreshToken);
    changed();
  },
  /** A fresh sign-in: everything but the keep-list goes; the refresh token only when staying signed in. */
  signIn(accessToken: string, refreshToken: string, saveLogin: boolean) {
    storage.clearExcept(KEEP_ON_LOGIN);
    tokens.set(accessToken, saveLogin ? refreshToken : '');
  },
  clear() {
    storage.remove('accessToken');
    storage.remove('refreshToken');
    changed();
  },
  /**
   * Calls `fn` when the access token changes, here or in another tab (which shares the storage: a renewal there
   * renews this tab's too). Answers the function that stops it.
   */
  watch(fn: () => void): () => void {
    const other = (e: StorageEvent) => {
      if (e.key === `${STORAGE_PREFIX}accessToken` || e.key === null) fn();
    };
    watchers.add(fn);
    window.addEventListener('storage', other);
    return () => {
      watchers.delete(fn);
      window.removeEventListener('storage', other);
    };
  },
};

/**
 * Whether an access token is past half its life, when the server sends a renewed one with the next answer: an idle
 * page with its socket up makes no calls, so it asks for the renewal itself while the user is there.
 */
export function pastHalfLife(token: string, nowMs = Date.now()): boolean {
  try {
    const part = token.split('.')[1] ?? '';
    const { iat, exp } = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { iat?: number; exp?: number };
    if (typeof iat !== 'number' || typeof exp !== 'number') return false;
    return nowMs / 1000 >= iat + (exp - iat) / 2;
  } catch {
    return false;
  }
}
