import { THEMES, type Theme } from '@portal/contracts';
import { storage } from './storage';
import { createStore, useStore } from './store';

interface ThemeState {
  /** The user's choice. */
  theme: Theme;
  /** Some public screens (share pages, auth pages) always render light. */
  forcedLight: boolean;
}

export const themeStore = createStore<ThemeState>({ theme: 'light', forcedLight: false });

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

export function storedTheme(): Theme | null {
  const v = storage.get('theme');
  return isTheme(v) ? v : null;
}

function apply() {
  document.documentElement.dataset.theme = effectiveTheme();
}

export function effectiveTheme(state = themeStore.get()): Theme {
  return state.forcedLight ? 'light' : state.theme;
}

/** Sets the theme; `persist` false applies a URL-given scheme without overriding the stored choice. */
export function setTheme(theme: Theme, persist = true) {
  if (persist) storage.set('theme', theme);
  themeStore.set((s) => ({ ...s, theme }));
  apply();
}

export function setForcedLight(forcedLight: boolean) {
  if (themeStore.get().forcedLight === forcedLight) return;
  themeStore.set((s) => ({ ...s, forcedLight }));
  apply();
}

export function useTheme() {
  const state = useStore(themeStore);
  return { theme: state.theme, effective: effectiveTheme(state) };
}
