import { createRoot } from 'react-dom/client';
import type { AppConfig } from '@portal/contracts';
import { configureHttp, http } from '../lib/http';
import { appConfigStore, normalizeAppConfig } from '../lib/appConfig';
import { currentLanguage, errorTemplate, i18next, setLanguage, storedLanguage } from '../lib/i18n';
import { isTheme, setTheme, storedTheme } from '../lib/theme';
import { loadPrefs } from '../lib/prefs';
import { notify } from '../lib/notify';
import { hasToken, initSession, logout, signingOut, watchOtherTabs } from '../lib/session';
import { isInternetExplorer } from '../lib/device';
import { requestIdentity } from '../components/identity';
import { App } from './App';
import { refreshMenu } from './profile';
import { wireLive } from './live';
import { warmFirstScreen } from './warmFirstScreen';

const UNSUPPORTED_BROWSER =
  'Your browser does not support access, it is recommended to use the latest version of Google Chrome!';

function wireHttp() {
  configureHttp({
    lang: currentLanguage,
    toast: (text) => notify.error(text),
    logout: (reason) => void logout({ returnHere: true, reason }),
    signingOut,
    reauthenticate: requestIdentity,
    permissionsChanged: () => void refreshMenu(),
    // Raw templates: the client fills no parameters, so those with placeholders defer to the server's text.
    translate: errorTemplate,
    regionMismatch: async (text, target) => {
      const modal = await notify.modal();
      if (!modal) return;
      void modal.confirm({
        title: i18next.t('regionMismatch.title'),
        content: text,
        okText: i18next.t('regionMismatch.go'),
        cancelText: i18next.t('cancel'),
        onOk: () => {
          if (/^https?:\/\//.test(target)) window.location.href = target;
        },
      });
    },
  });
}

/** The start-up sequence of spec §4. Any failure is swallowed and the app does not start. */
export async function bootstrap(): Promise<void> {
  if (isInternetExplorer()) {
    alert(UNSUPPORTED_BROWSER);
    return;
  }
  try {
    // 1. Light and dark styles come with the imported stylesheet; the attribute selects one.
    wireHttp();
    // The first screen's code, and the config (the same in every language), are fetched while the language loads;
    // each step below still takes effect in the spec's order.
    warmFirstScreen(window.location.pathname, hasToken());
    const configAnswer = http
      .post<AppConfig | null>('app_config/get', {}, { auth: false, silent: true })
      .catch(() => null);
    // 2. Language from the address, else the stored one, else English.
    const url = new URL(window.location.href);
    const langParam = url.searchParams.get('lang');
    await setLanguage(langParam ?? storedLanguage() ?? 'en', langParam !== null);
    // 3. Application config: a failure or an empty answer clears the page.
    const cfg = await configAnswer;
    if (!cfg || typeof cfg !== 'object') {
      document.body.innerHTML = '';
      return;
    }
    appConfigStore.set(normalizeAppConfig(cfg));
    if (cfg.pageTagName || cfg.appName) document.title = cfg.pageTagName || cfg.appName;
    // 4. Theme: address (for this visit: the stored choice stays), else stored, else the config default.
    const scheme = url.searchParams.get('colorScheme');
    if (isTheme(scheme)) setTheme(scheme, false);
    else setTheme(storedTheme() ?? cfg.themeCfgJson?.defaultTheme ?? 'light', false);
    // 5. The one-shot parameters leave the address.
    if (url.searchParams.has('lang') || url.searchParams.has('colorScheme')) {
      url.searchParams.delete('lang');
      url.searchParams.delete('colorScheme');
      window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    }
    // 6. Local preferences, then the app.
    loadPrefs();
    initSession();
    watchOtherTabs();
    wireLive();
    // A role may have changed while the tab was hidden: its menu is fetched again when it comes back.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void refreshMenu();
    });
    const root = document.getElementById('root');
    if (!root) return;
    createRoot(root).render(<App />);
  } catch (e) {
    console.error(e);
  }
}
