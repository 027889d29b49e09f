import type { AppConfig } from '@portal/contracts';
import { createStore, useStore } from './store';

export const appConfigStore = createStore<AppConfig | null>(null);

/** Trailing slashes are stripped from the API and websocket endpoints (§3). */
export function normalizeAppConfig(cfg: AppConfig): AppConfig {
  return { ...cfg, apiEndpoint: cfg.apiEndpoint.replace(/\/+$/, ''), wsEndpoint: cfg.wsEndpoint.replace(/\/+$/, '') };
}

export function useAppConfig(): AppConfig {
  const cfg = useStore(appConfigStore);
  // The app never renders before the config is loaded (start-up sequence), so this holds.
  if (!cfg) throw new Error('App config not loaded');
  return cfg;
}
