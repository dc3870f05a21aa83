import { detectLanguage, type Language } from './language';
import { safeStorage, StorageKeys } from './storageKeys';
import { translate, type MessageTree, type TKey, type TOptions } from './translate';

// Texts load per language and per area (issue 21): a visitor downloads only the language they read, the core
// texts every screen uses, and the areas of the screens they open (a shared paste never pays for the admin panel).
// Keys stay one tree (`paste.…`, `files.…`); locales/resources.ts keeps the typed, complete set for tests.
type Loader = () => Promise<{ default: unknown }>;

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
const staticAreas = new Map<string, Partial<Record<Language, unknown>>>();
/** The texts of each language loaded so far. */
const bundles: Partial<Record<Language, MessageTree>> = {};
const listeners = new Set<(language: Language) => void>();

async function loadBundle(language: Language): Promise<MessageTree> {
  const areas = [...wantedAreas];
  const [core, ...loaded] = await Promise.all([CORE[language](), ...areas.map((area) => AREAS[language][area]())]);
  const bundle = { ...(core.default as MessageTree) };
  areas.forEach((area, i) => (bundle[area] = loaded[i]?.default as MessageTree));
  for (const [area, texts] of staticAreas) if (texts[language]) bundle[area] = texts[language] as MessageTree;
  return bundle;
}

function browserLanguage(): string | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return navigator.languages?.[0] ?? navigator.language;
}

export const initialLanguage: Language = detectLanguage(safeStorage.get(StorageKeys.language), browserLanguage());

let language: Language = initialLanguage;
/** The newest language asked for: a slower earlier switch never wins over it. */
let requested: Language = initialLanguage;

function emit(): void {
  for (const listener of [...listeners]) listener(language);
}

/** The app's texts: the current language, its lookup and the switch (the subset of i18next's API the app used). */
const i18n = {
  get language(): Language {
    return language;
  },
  t(key: TKey, options?: TOptions): string {
    return translate(bundles[language], language, key, options);
  },
  /** Whether `key` has a text in the current language (for keys built at run time). */
  exists(key: string): boolean {
    return translate(bundles[language], language, key) !== key;
  },
  async changeLanguage(next: Language): Promise<void> {
    requested = next;
    const bundle = bundles[next] ?? (await loadBundle(next));
    bundles[next] ??= bundle;
    if (requested !== next) return;
    language = next;
    emit();
  },
  /** Called with the language after every switch; answers the unsubscribe. */
  on(listener: (language: Language) => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Resolves once the current language's core texts are in: main.tsx renders after it. */
export const i18nReady: Promise<void> = i18n.changeLanguage(initialLanguage);

/**
 * Loads the texts of `areas` for the current language (a language switched to later loads them too).
 * Route chunks await it next to their own import, so a screen never renders a missing key.
 */
export async function loadTextAreas(areas: readonly TextArea[]): Promise<void> {
  const missing = areas.filter((area) => !wantedAreas.has(area));
  if (missing.length === 0) return;
  missing.forEach((area) => wantedAreas.add(area));
  const target = language;
  const texts = await Promise.all(missing.map((area) => AREAS[target][area]()));
  await i18nReady;
  const bundle = bundles[target];
  if (!bundle) return;
  // No re-render: the screens that use these texts wait for them before they render at all.
  missing.forEach((area, i) => (bundle[area] = texts[i]?.default as MessageTree));
}

/** Adds texts a chunk bundles itself for both languages (the `fs` texts of the mount explorer). */
export function addStaticTextArea(area: string, texts: Record<Language, unknown>): void {
  staticAreas.set(area, texts);
  for (const lng of Object.keys(texts) as Language[]) {
    const bundle = bundles[lng];
    if (bundle) bundle[area] = texts[lng] as MessageTree;
  }
}

function applyDocumentLanguage(lang: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
applyDocumentLanguage(initialLanguage);
i18n.on(applyDocumentLanguage);

export function currentLanguage(): Language {
  return language;
}

export function setLanguage(lang: Language): void {
  safeStorage.set(StorageKeys.language, lang);
  void i18n.changeLanguage(lang);
}

export type I18n = typeof i18n;
export default i18n;
