import '../../../app/base.css';
import './visit.css';
import { createRoot } from 'react-dom/client';
import type { AppConfig } from '@portal/contracts';
import { appConfigStore, normalizeAppConfig } from '../../../lib/appConfig';
import { configureHttp, http } from '../../../lib/http';
import { browserLanguage, configureStartup, currentLanguage, setLanguage, storedLanguage } from '../../../lib/i18n';
import { VisitPage } from './VisitPage';

/**
 * The share pages' own start-up: a visitor needs the share, its texts and the portal's name, none of the signed-in
 * app (its router, query cache, antd's theme), so their first load stays small on a phone.
 */
async function start() {
  configureHttp({ lang: currentLanguage });
  // No error texts: the page words each answer it handles itself.
  configureStartup({ namespaces: ['common', 'shares'], componentLocales: false });
  const url = new URL(window.location.href);
  const langParam = url.searchParams.get('lang');
  const [cfg] = await Promise.all([
    http.post<AppConfig | null>('app_config/get', {}, { auth: false, silent: true }).catch(() => null),
    setLanguage(langParam ?? storedLanguage() ?? browserLanguage() ?? 'en', langParam !== null),
  ]);
  if (cfg && typeof cfg === 'object') {
    appConfigStore.set(normalizeAppConfig(cfg));
    if (cfg.pageTagName || cfg.appName) document.title = cfg.pageTagName || cfg.appName;
  }
  if (langParam !== null) {
    url.searchParams.delete('lang');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<VisitPage code={url.searchParams.get('code') ?? ''} />);
}

void start().catch((e: unknown) => console.error(e));
