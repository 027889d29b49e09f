import type { MenuItem, TokenPair, UserInfo } from '@portal/contracts';
import { http } from './http';
import { queryClient } from './queryClient';
import { tokens } from './tokens';
import { STORAGE_PREFIX } from './storage';
import { createStore, useStore } from './store';

export interface SessionState {
  user: UserInfo | null;
  /** Processed menu (pruned, own space added); null until loaded. Routes are built from it. */
  menus: MenuItem[] | null;
  permissions: string[];
  signedIn: boolean;
  /** Bumped on sign-in and logout: the app builds a fresh router (routes cleared) at the new address. */
  epoch: number;
}
export const sessionStore = createStore<SessionState>({
  user: null,
  menus: null,
  permissions: [],
  signedIn: false,
  epoch: 0,
});

export function useSession() {
  return useStore(sessionStore);
}

export function hasToken(): boolean {
  return tokens.access() !== '';
}

/** Moves the address first, so the router built for the new session starts there. */
function restartAt(target: string, signedIn: boolean) {
  const here = window.location.pathname + window.location.search;
  if (target !== here) window.history.pushState(null, '', target);
  sessionStore.set((s) => ({ user: null, menus: null, permissions: [], signedIn, epoch: s.epoch + 1 }));
}

export function initSession() {
  sessionStore.set((s) => ({ ...s, signedIn: hasToken() }));
}

export function signIn(pair: TokenPair, saveLogin: boolean, target = '/') {
  tokens.signIn(pair.accessToken, pair.refreshToken, saveLogin);
  restartAt(target, true);
}

/**
 * The profile after sign-in or a menu reload. A menu that came back the same keeps its object: the router is rebuilt
 * only when the menu changed (a rebuild remounts the screen and drops a navigation still loading its page).
 */
export function setProfile(user: UserInfo, menus: MenuItem[], permissions: string[]) {
  sessionStore.set((s) => ({
    ...s,
    user,
    menus: s.menus && JSON.stringify(s.menus) === JSON.stringify(menus) ? s.menus : menus,
    permissions,
  }));
}

export function patchUser(patch: Partial<UserInfo>) {
  sessionStore.set((s) => (s.user ? { ...s, user: { ...s.user, ...patch } } : s));
}

/** Where to return after the next sign-in (a logout from a page carries it). */
export interface PendingRedirect {
  url: string;
  userCode: string | null;
}
let pendingRedirect: PendingRedirect | null = null;
export function setPendingRedirect(value: PendingRedirect | null) {
  pendingRedirect = value;
}
/**
 * The pending redirect if it belongs to this user. Reading does not consume it (a render may be redone);
 * `clearPendingRedirect` does, once the navigation to it is committed.
 */
export function peekPendingRedirect(userCode: string): string | null {
  const p = pendingRedirect;
  if (!p || !p.url.startsWith('/') || p.url.startsWith('//')) return null;
  return !p.userCode || p.userCode === userCode ? p.url : null;
}
export function clearPendingRedirect() {
  pendingRedirect = null;
}

let loggingOut: Promise<void> | null = null;

const SIGNED_OUT_REASON = 'portal.signedOutReason';

let shownReason: string | null | undefined;

/**
 * Why the server ended the session (organization disabled, session ended), for the login page: read once per
 * sign-out, and the same answer to a render that is done again.
 */
export function takeSignedOutReason(): string | null {
  if (shownReason === undefined) {
    shownReason = sessionStorage.getItem(SIGNED_OUT_REASON);
    sessionStorage.removeItem(SIGNED_OUT_REASON);
  }
  return shownReason;
}

/**
 * Ends the session: server logout when a token exists (failure ignored), tokens, cached queries
 * and routes cleared, then login. `returnHere` carries the current page so the same user comes back.
 */
/** Whether the session is being ended (the http client then stays quiet about calls refused as signed out). */
export function signingOut(): boolean {
  return loggingOut !== null;
}

export function logout(opts: { returnHere?: boolean; reason?: string } = {}): Promise<void> {
  loggingOut ??= (async () => {
    if (opts.reason) sessionStorage.setItem(SIGNED_OUT_REASON, opts.reason);
    shownReason = undefined;
    const user = sessionStore.get().user;
    if (hasToken()) {
      try {
        await http.write('user/logout', {}, { silent: true, auth: false });
      } catch {
        /* the session ends locally anyway */
      }
    }
    tokens.clear();
    queryClient.clear();
    let target = '/login';
    const here = window.location.pathname + window.location.search;
    if (opts.returnHere && window.location.pathname !== '/login' && window.location.pathname !== '/') {
      const qs = new URLSearchParams({ redirectUrl: here });
      if (user) qs.set('userCode', user.userCode);
      target += `?${qs.toString()}`;
    }
    restartAt(target, false);
  })().finally(() => {
    loggingOut = null;
  });
  return loggingOut;
}

/** If another tab signs in or out, this tab reloads once it is visible (§4 Session). */
export function watchOtherTabs() {
  let changed = false;
  const reloadIfVisible = () => {
    if (changed && document.visibilityState === 'visible') window.location.reload();
  };
  window.addEventListener('storage', (e) => {
    if (e.key === `${STORAGE_PREFIX}accessToken` || e.key === null) {
      changed = true;
      reloadIfVisible();
    }
  });
  document.addEventListener('visibilitychange', reloadIfVisible);
}
