import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { detectLanguage, type Language } from './language';
import { safeStorage, StorageKeys } from './storageKeys';

// Texts load per language and per area (issue 21): a visitor downloads only the language they read, the core
// texts every screen uses, and the areas of the screens they open (a shared paste never pays for the admin panel).
// Keys stay one namespace (`paste.…`, `files.…`); locales/resources.ts keeps the typed, complete set for tests.
type Json = Record<string, unknown>;
type Loader = () => Promise<{ default: Json }>;

/** Texts a screen may need on top of the core ones; screens declare theirs in app/router.tsx. */
export type TextArea = 'paste' | 'files' | 'adminPanel';

const CORE: Record<Language, Loader> = {
  en: () => import('../locales/en.json'),
  'zh-CN': () => import('../locales/zh-CN.json'),
};
const AREAS: Record<Language, Record<TextArea, Loader>> = {
  en: {
    paste: () => import('../locales/en/paste.json'),
    files: () => import('../locales/en/files.json'),
    adminPanel: () => import('../locales/en/adminPanel.json'),
  },
  'zh-CN': {
    paste: () => import('../locales/zh-CN/paste.json'),
    files: () => import('../locales/zh-CN/files.json'),
    adminPanel: () => import('../locales/zh-CN/adminPanel.json'),
  },
};

/** Areas wanted so far: a language loaded later (a switch) brings them along. */
const wantedAreas = new Set<TextArea>();
/** Areas bundled by a chunk itself (both languages, e.g. `fs`), merged into every language that loads. */
const staticAreas = new Map<string, Partial<Record<Language, Json>>>();

const asLanguage = (lng: string): Language => (lng === 'en' ? 'en' : 'zh-CN');

async function loadBundle(language: Language): Promise<Json> {
  const areas = [...wantedAreas];
  const [core, ...loaded] = await Promise.all([CORE[language](), ...areas.map((area) => AREAS[language][area]())]);
  const bundle: Json = { ...core.default };
  areas.forEach((area, i) => (bundle[area] = loaded[i]?.default));
  for (const [area, texts] of staticAreas) if (texts[language]) bundle[area] = texts[language];
  return bundle;
}

const lazyTexts: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, _namespace: string, callback: ReadCallback) {
    loadBundle(asLanguage(language)).then(
      (bundle) => callback(null, bundle),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

function browserLanguage(): string | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return navigator.languages?.[0] ?? navigator.language;
}

export const initialLanguage: Language = detectLanguage(safeStorage.get(StorageKeys.language), browserLanguage());

/** Resolves once the current language's core texts are in: main.tsx renders after it. */
export const i18nReady: Promise<unknown> = i18n
  .use(lazyTexts)
  .use(initReactI18next)
  .init({
    lng: initialLanguage,
    // Both languages carry every key (a type error otherwise): no fallback language to download.
    fallbackLng: false,
    supportedLngs: ['zh-CN', 'en'],
    load: 'currentOnly',
    interpolation: { escapeValue: false },
    returnNull: false,
  });

/**
 * Loads the texts of `areas` for the current language (a language switched to later loads them too).
 * Route chunks await it next to their own import, so a screen never renders a missing key.
 */
export async function loadTextAreas(areas: readonly TextArea[]): Promise<void> {
  const missing = areas.filter((area) => !wantedAreas.has(area));
  if (missing.length === 0) return;
  missing.forEach((area) => wantedAreas.add(area));
  const language = asLanguage(i18n.language ?? initialLanguage);
  const texts = await Promise.all(missing.map((area) => AREAS[language][area]()));
  await i18nReady;
  missing.forEach((area, i) =>
    i18n.addResourceBundle(language, 'translation', { [area]: texts[i]?.default }, true, true),
  );
}

/** Adds texts a chunk bundles itself for both languages (the `fs` texts of the mount explorer). */
export function addStaticTextArea(area: string, texts: Record<Language, Json>): void {
  staticAreas.set(area, texts);
  for (const language of Object.keys(texts) as Language[]) {
    if (i18n.hasResourceBundle(language, 'translation')) {
      i18n.addResourceBundle(language, 'translation', { [area]: texts[language] }, true, true);
    }
  }
}

function applyDocumentLanguage(lang: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
applyDocumentLanguage(initialLanguage);
i18n.on('languageChanged', applyDocumentLanguage);

export function currentLanguage(): Language {
  return i18n.language === 'en' ? 'en' : 'zh-CN';
}

export function setLanguage(lang: Language): void {
  safeStorage.set(StorageKeys.language, lang);
  void i18n.changeLanguage(lang);
}

export default i18n;
