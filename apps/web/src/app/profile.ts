import { createElement } from 'react';
import { collectPermissions, ERRORS, NO_ACCESS_TOAST_MS, pruneMenu, withOwnSpace } from '@portal/contracts';
import { fetchUserInfo } from '../features/auth/api/userInfo';
import { listUserMenu } from '../features/auth/api/listUserMenu';
import { queryAgreementReadLog, type UnreadAgreement } from '../features/auth/api/agreements';
import { saveAgreementReadLog } from '../features/auth/api/saveAgreementReadLog';
import { ApiError } from '../lib/http';
import { i18next, setLanguage, storedLanguage } from '../lib/i18n';
import { notify } from '../lib/notify';
import { logout, sessionStore, setProfile } from '../lib/session';

/**
 * Resolves true when the user accepts every listed agreement. The first time the user is asked to accept them;
 * later, to accept the versions that replaced those they accepted.
 */
async function askAgreements(unread: UnreadAgreement[], firstTime: boolean): Promise<boolean> {
  const modal = await notify.modal();
  if (!modal) return false;
  const t = i18next.t.bind(i18next);
  return new Promise((resolve) => {
    modal.confirm({
      title: t(firstTime ? 'agreements.firstTitle' : 'agreements.title'),
      content: createElement(
        'div',
        { 'data-testid': 'agreements-modal', 'data-first-time': String(firstTime) },
        createElement('p', null, t(firstTime ? 'agreements.firstText' : 'agreements.text')),
        createElement(
          'ul',
          null,
          unread.map((a) =>
            createElement(
              'li',
              { key: a.agreementType },
              createElement(
                'a',
                { href: a.url, target: '_blank', rel: 'noreferrer' },
                t(`agreements.${a.agreementType}`),
              ),
            ),
          ),
        ),
      ),
      okText: t('agreements.accept'),
      cancelText: t('agreements.refuse'),
      okButtonProps: { 'data-testid': 'agreements-accept' },
      cancelButtonProps: { 'data-testid': 'agreements-refuse' },
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/** Returns false when the session must end. */
async function checkAgreements(): Promise<boolean> {
  let unread: UnreadAgreement[];
  let firstTime: boolean;
  try {
    ({ unread, firstTime } = await queryAgreementReadLog());
  } catch (e) {
    // 403 on the check logs out; other failures do not block the user.
    return !(e instanceof ApiError && (e.status === 403 || e.code === ERRORS.ACCESS_DENIED.code));
  }
  if (unread.length === 0) return true;
  if (!(await askAgreements(unread, firstTime))) return false;
  try {
    await saveAgreementReadLog(unread.map((a) => a.agreementType));
    return true;
  } catch {
    return false;
  }
}

/** The permissions of a processed menu: what the server lists, and what the entries carry. */
function permissionsOf(
  menus: Parameters<typeof collectPermissions>[0],
  all: Parameters<typeof collectPermissions>[0],
  listed: string[],
) {
  return [...new Set([...listed, ...collectPermissions(menus), ...collectPermissions(all)])];
}

/** A menu without a screen (§2): the user is told for 1.5 s, then signed out. */
async function signOutForNoAccess() {
  notify.error(i18next.t('lang_notHaveAccess'), NO_ACCESS_TOAST_MS / 1000);
  await new Promise((r) => setTimeout(r, NO_ACCESS_TOAST_MS));
  await logout();
}

let loading: Promise<void> | null = null;

/** After sign-in (§4): user info, agreements, menu; the router is then rebuilt from the menu. */
export function loadProfile(): Promise<void> {
  loading ??= (async () => {
    try {
      const user = await fetchUserInfo();
      // The account's language applies unless this browser chose one explicitly.
      if (!storedLanguage() && user.language) await setLanguage(user.language, false);
      if (!(await checkAgreements())) return void (await logout());
      const { menus, permissions } = await listUserMenu();
      const screens = pruneMenu(menus);
      if (screens.length === 0) return void (await signOutForNoAccess());
      const all = withOwnSpace(screens);
      setProfile(user, all, permissionsOf(menus, all, permissions));
    } catch {
      // A failed call was already reported (or ended the session); without a profile the user cannot go on.
      await logout({ returnHere: true });
    }
  })().finally(() => {
    loading = null;
  });
  return loading;
}

let refreshing: Promise<void> | null = null;
let refreshedAt = 0;
/** A burst of refused calls reloads the menu once. */
const REFRESH_GAP_MS = 2000;

/**
 * Reloads the role's menu: a change of a role applies at once on the server, and the app follows on its next call
 * the server refuses for want of a permission, and when the tab becomes visible again. The routes are rebuilt from
 * the new menu; a menu left empty signs the user out as at sign-in.
 */
export function refreshMenu(): Promise<void> {
  const { user, signedIn } = sessionStore.get();
  if (!signedIn || !user || loading) return Promise.resolve();
  if (refreshing || Date.now() - refreshedAt < REFRESH_GAP_MS) return refreshing ?? Promise.resolve();
  refreshing = (async () => {
    try {
      const { menus, permissions } = await listUserMenu();
      const screens = pruneMenu(menus);
      if (screens.length === 0) return void (await signOutForNoAccess());
      const all = withOwnSpace(screens);
      setProfile(user, all, permissionsOf(menus, all, permissions));
    } catch {
      // The next refused call or visit tries again.
    } finally {
      refreshedAt = Date.now();
      refreshing = null;
    }
  })();
  return refreshing;
}
