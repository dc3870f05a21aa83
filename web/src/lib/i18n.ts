import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en, zhCN } from '../locales/resources';
import { detectLanguage, FALLBACK_LANGUAGE, type Language } from './language';
import { safeStorage, StorageKeys } from './storageKeys';

export const resources = {
  en: { translation: en },
  'zh-CN': { translation: zhCN },
} as const;

function browserLanguage(): string | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return navigator.languages?.[0] ?? navigator.language;
}

export const initialLanguage: Language = detectLanguage(safeStorage.get(StorageKeys.language), browserLanguage());

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage,
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: ['zh-CN', 'en'],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

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
