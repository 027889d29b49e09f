import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale as AntdLocale } from 'antd/es/locale';
import dayjs from 'dayjs';
import { LANGUAGES, normalizeLanguage, type Language } from '@portal/contracts';
import { storage } from './storage';
import { createStore, useStore } from './store';

type Json = { default: Record<string, unknown> };
type Loaders = Record<string, () => Promise<Json>>;
// Every namespace of every language is a separate chunk; only the current language's (plus the en fallback) are
// fetched. Each language lists its own files, so the first page's script lists languages, not files.
const languageFiles = import.meta.glob<{ default: Loaders }>('../locales/*/index.ts');
const languageLoaders = new Map<string, Promise<Loaders>>();
function uiLoader(lng: string, ns: string): (() => Promise<Json>) | undefined {
  const language = languageFiles[`../locales/${lng}/index.ts`];
  if (!language) return undefined;
  let loaders = languageLoaders.get(lng);
  if (!loaders) {
    loaders = language().then((m) => m.default);
    languageLoaders.set(lng, loaders);
  }
  return () => loaders.then((files) => files[`./${ns}.json`]?.() ?? { default: {} });
}
const errorFiles = import.meta.glob<Json>('../../../../packages/contracts/locales/*/errors.json');

// The error texts are not among them: the server answers in the reader's language from the same catalogue, so they
// load with the first refusal (errorTexts) and only add wording the server leaves to the client.
export const NAMESPACES = ['common', 'auth', 'register', 'layout', 'ownSpace', 'review', 'mail'] as const;

/** What a document loads at start: the app's start-up namespaces and antd's texts, or less (the share pages). */
let startup: { namespaces: readonly string[]; componentLocales: boolean } = {
  namespaces: NAMESPACES,
  componentLocales: true,
};
/** Call before the first setLanguage: a document without antd at start-up loads neither antd's texts nor the app's. */
export function configureStartup(options: { namespaces: readonly string[]; componentLocales: boolean }) {
  startup = options;
}

const backend: BackendModule = {
  type: 'backend',
  init() {},
  read(lng, ns, callback) {
    const loader =
      ns === 'errors' ? errorFiles[`../../../../packages/contracts/locales/${lng}/errors.json`] : uiLoader(lng, ns);
    // A language not translated yet falls back to English through fallbackLng.
    if (!loader) return callback(null, {});
    loader().then(
      (m) => callback(null, m.default),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), false),
    );
  },
};

const antdLocales: Partial<Record<Language, () => Promise<{ default: AntdLocale }>>> = {
  de: () => import('antd/locale/de_DE'),
  fr: () => import('antd/locale/fr_FR'),
  es: () => import('antd/locale/es_ES'),
  it: () => import('antd/locale/it_IT'),
  pt: () => import('antd/locale/pt_PT'),
  nl: () => import('antd/locale/nl_NL'),
  pl: () => import('antd/locale/pl_PL'),
  sv: () => import('antd/locale/sv_SE'),
  no: () => import('antd/locale/nb_NO'),
  da: () => import('antd/locale/da_DK'),
  hu: () => import('antd/locale/hu_HU'),
  ru: () => import('antd/locale/ru_RU'),
  'zh-CN': () => import('antd/locale/zh_CN'),
  'zh-TW': () => import('antd/locale/zh_TW'),
  ja: () => import('antd/locale/ja_JP'),
  el: () => import('antd/locale/el_GR'),
  hr: () => import('antd/locale/hr_HR'),
  sk: () => import('antd/locale/sk_SK'),
  sl: () => import('antd/locale/sl_SI'),
  tr: () => import('antd/locale/tr_TR'),
};

const dayjsLocales: Partial<Record<Language, [string, () => Promise<unknown>]>> = {
  de: ['de', () => import('dayjs/locale/de')],
  fr: ['fr', () => import('dayjs/locale/fr')],
  es: ['es', () => import('dayjs/locale/es')],
  it: ['it', () => import('dayjs/locale/it')],
  pt: ['pt', () => import('dayjs/locale/pt')],
  nl: ['nl', () => import('dayjs/locale/nl')],
  pl: ['pl', () => import('dayjs/locale/pl')],
  sv: ['sv', () => import('dayjs/locale/sv')],
  no: ['nb', () => import('dayjs/locale/nb')],
  da: ['da', () => import('dayjs/locale/da')],
  hu: ['hu', () => import('dayjs/locale/hu')],
  ru: ['ru', () => import('dayjs/locale/ru')],
  'zh-CN': ['zh-cn', () => import('dayjs/locale/zh-cn')],
  'zh-TW': ['zh-tw', () => import('dayjs/locale/zh-tw')],
  ja: ['ja', () => import('dayjs/locale/ja')],
  el: ['el', () => import('dayjs/locale/el')],
  hr: ['hr', () => import('dayjs/locale/hr')],
  sk: ['sk', () => import('dayjs/locale/sk')],
  sl: ['sl', () => import('dayjs/locale/sl')],
  tr: ['tr', () => import('dayjs/locale/tr')],
};

interface LocaleState {
  lang: Language;
  /** undefined = antd's built-in English. */
  antd: AntdLocale | undefined;
}
export const localeStore = createStore<LocaleState>({ lang: 'en', antd: undefined });

export function currentLanguage(): Language {
  return localeStore.get().lang;
}

/** The first of the browser's languages the portal speaks (a share's visitor has never chosen one here). */
export function browserLanguage(): Language | null {
  for (const tag of navigator.languages ?? [navigator.language]) {
    // normalizeLanguage answers English for what it does not know: only a real English tag counts as English.
    const lang = normalizeLanguage(tag);
    if (lang !== 'en' || /^en\b/i.test(tag)) return lang;
  }
  return null;
}

export function storedLanguage(): Language | null {
  const v = storage.get('lang');
  return v && (LANGUAGES as readonly string[]).includes(v) ? (v as Language) : null;
}

let initialized: Promise<unknown> | null = null;

function init(lang: Language) {
  initialized ??= i18next
    .use(backend)
    .use(initReactI18next)
    .init({
      lng: lang,
      fallbackLng: 'en',
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      ns: [...startup.namespaces],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
      returnNull: false,
      // No promotional notice in the browser console.
      showSupportNotice: false,
    } as Parameters<typeof i18next.init>[0]);
  return initialized;
}

/** Switches every translated layer: UI strings, error messages, antd components and dayjs. */
export async function setLanguage(value: string, persist = true): Promise<Language> {
  const lang = normalizeLanguage(value);
  const antdLoader = startup.componentLocales ? antdLocales[lang] : undefined;
  const dayjsEntry = dayjsLocales[lang];
  const switching = initialized !== null;
  const [antd] = await Promise.all([
    antdLoader
      ? antdLoader()
          .then((m) => m.default)
          .catch(() => undefined)
      : Promise.resolve(undefined),
    dayjsEntry ? dayjsEntry[1]().catch(() => undefined) : Promise.resolve(undefined),
    switching ? i18next.loadLanguages(lang) : init(lang),
  ]);
  // Dates first: switching i18next re-renders the screens, and they format dates in the new language.
  dayjs.locale(dayjsEntry ? dayjsEntry[0] : 'en');
  if (switching) await i18next.changeLanguage(lang);
  if (persist) storage.set('lang', lang);
  document.documentElement.lang = lang;
  localeStore.set({ lang, antd });
  return lang;
}

export function useLocale() {
  return useStore(localeStore);
}

export { i18next };

/**
 * The client's wording of an error code (the errors namespace), once loaded; the first call starts loading it and
 * answers null, so the server's message (same catalogue, same language) shows meanwhile.
 */
export function errorTemplate(key: string): string | null {
  if (!i18next.hasLoadedNamespace('errors')) {
    void i18next.loadNamespaces('errors');
    return null;
  }
  return i18next.exists(key, { ns: 'errors' }) ? i18next.t(key, { ns: 'errors', skipInterpolation: true }) : null;
}
