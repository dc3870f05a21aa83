import { detectLanguage, type Language } from './language';
import { safeStorage, StorageKeys } from './storageKeys';
import { translate, type MessageTree, type TKey, type TOptions } from './translate';

// Texts load per language and per area: a visitor downloads only the language they read, the core
// texts every screen uses, and the areas of the screens they open (a shared paste never pays for the admin panel).
// Keys stay one tree (`paste.…`, `files.…`); locales/resources.ts keeps the typed, complete set for tests.
type Loader = () => Promise<{ default: unknown }>;

/**
 * Texts a screen may need on top of the core ones; screens declare theirs in app/routes.ts, a lazily loaded part
 * (a preview) loads its own with `withTextAreas`. Each area is one top-level group of keys (`keys.…` is
 * locales/{lang}/keys.json), so moving a group out of the core file changes no key.
 */
export type TextArea =
  | 'paste'
  | 'files'
  | 'admin'
  | 'login'
  | 'adminPanel'
  | 'fs'
  | 'preview'
  | 'connect'
  | 'keys'
  | 'permissions'
  | 'roles'
  | 'envSwitcher';

const CORE: Record<Language, Loader> = {
  en: () => import('../locales/en.json'),
  'zh-CN': () => import('../locales/zh-CN.json'),
};
const AREAS: Record<Language, Record<TextArea, Loader>> = {
  en: {
    paste: () => import('../locales/en/paste.json'),
    files: () => import('../locales/en/files.json'),
    adminPanel: () => import('../locales/en/adminPanel.json'),
    fs: () => import('../locales/en/fs.json'),
    connect: () => import('../locales/en/connect.json'),
    preview: () => import('../locales/en/preview.json'),
    keys: () => import('../locales/en/keys.json'),
    permissions: () => import('../locales/en/permissions.json'),
    roles: () => import('../locales/en/roles.json'),
    admin: () => import('../locales/en/admin.json'),
    login: () => import('../locales/en/login.json'),
    envSwitcher: () => import('../locales/en/envSwitcher.json'),
  },
  'zh-CN': {
    paste: () => import('../locales/zh-CN/paste.json'),
    files: () => import('../locales/zh-CN/files.json'),
    adminPanel: () => import('../locales/zh-CN/adminPanel.json'),
    fs: () => import('../locales/zh-CN/fs.json'),
    connect: () => import('../locales/zh-CN/connect.json'),
    preview: () => import('../locales/zh-CN/preview.json'),
    keys: () => import('../locales/zh-CN/keys.json'),
    permissions: () => import('../locales/zh-CN/permissions.json'),
    roles: () => import('../locales/zh-CN/roles.json'),
    admin: () => import('../locales/zh-CN/admin.json'),
    login: () => import('../locales/zh-CN/login.json'),
    envSwitcher: () => import('../locales/zh-CN/envSwitcher.json'),
  },
};

/** Areas wanted so far: a language loaded later (a switch) brings them along. */
const wantedAreas = new Set<TextArea>();
/** The texts of each language loaded so far. */
const bundles: Partial<Record<Language, MessageTree>> = {};
const listeners = new Set<(language: Language) => void>();

async function loadBundle(language: Language): Promise<MessageTree> {
  const areas = [...wantedAreas];
  const [core, ...loaded] = await Promise.all([CORE[language](), ...areas.map((area) => AREAS[language][area]())]);
  const bundle = { ...(core.default as MessageTree) };
  areas.forEach((area, i) => (bundle[area] = loaded[i]?.default as MessageTree));
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
    // A language loaded earlier may lack areas wanted since (a screen opened in the other language).
    const cached = bundles[next];
    const complete = cached && [...wantedAreas].every((area) => area in cached);
    const bundle = complete ? cached : await loadBundle(next);
    bundles[next] = bundle;
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

/** Area loads started, per language: every caller waits for the same one. */
const areaLoads = new Map<string, Promise<void>>();

/**
 * Loads the texts of `areas` for the current language (a language switched to later loads them too).
 * Route chunks await it next to their own import, so a screen never renders a missing key; a second caller (the
 * lazy screen after its preload) waits for the load already under way instead of finding the area "wanted".
 */
export async function loadTextAreas(areas: readonly TextArea[]): Promise<void> {
  const target = language;
  await Promise.all(
    areas.map((area) => {
      wantedAreas.add(area);
      const key = `${target}|${area}`;
      let load = areaLoads.get(key);
      if (!load) {
        load = Promise.all([AREAS[target][area](), i18nReady]).then(([texts]) => {
          const bundle = bundles[target];
          // No re-render: the screens that use these texts wait for them before they render at all.
          if (bundle) bundle[area] = texts.default as MessageTree;
        });
        // A failed load (network) may be tried again by the next screen that needs it.
        load.catch(() => areaLoads.delete(key));
        areaLoads.set(key, load);
      }
      return load;
    }),
  );
}

/** A lazily loaded module together with the text areas it renders with (for `lazy()` parts of a screen). */
export function withTextAreas<T>(areas: readonly TextArea[], load: () => Promise<T>): Promise<T> {
  return Promise.all([load(), loadTextAreas(areas)]).then(([module]) => module);
}

function applyDocumentLanguage(lang: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
applyDocumentLanguage(initialLanguage);
i18n.on(applyDocumentLanguage);

/** The text of `key` in `lang` if that language's texts are loaded and have it, else undefined. */
export function textIn(lang: string, key: string, options?: TOptions): string | undefined {
  const bundle = bundles[lang as Language];
  if (!bundle) return undefined;
  const text = translate(bundle, lang, key, options);
  return text === key ? undefined : text;
}

export function currentLanguage(): Language {
  return language;
}

export function setLanguage(lang: Language): void {
  safeStorage.set(StorageKeys.language, lang);
  void i18n.changeLanguage(lang);
}

export type I18n = typeof i18n;
export default i18n;
