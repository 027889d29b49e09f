import { KEEP_ON_LOGIN, storage } from './storage';

/** The token pair in localStorage. Only the http client and the session touch it. */
export const tokens = {
  access: () => storage.get('accessToken') ?? '',
  refresh: () => storage.get('refreshToken') ?? '',
  set(accessToken: string, refreshToken: string) {
    storage.set('accessToken', accessToken);
    storage.set('refreshToken', refreshToken);
  },
  /** A fresh sign-in: everything but the keep-list goes; the refresh token only when staying signed in. */
  signIn(accessToken: string, refreshToken: string, saveLogin: boolean) {
    storage.clearExcept(KEEP_ON_LOGIN);
    tokens.set(accessToken, saveLogin ? refreshToken : '');
  },
  clear() {
    storage.remove('accessToken');
    storage.remove('refreshToken');
  },
};
