/** Language choice (spec §1): saved under `language`, default from the browser, fallback zh-CN. */
export const LANGUAGES = ['zh-CN', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'zh-CN';

export function isLanguage(value: unknown): value is Language {
  return value === 'zh-CN' || value === 'en';
}

/** Saved choice first; else the browser language (zh* → zh-CN, anything else → en); else zh-CN. */
export function detectLanguage(saved: string | null | undefined, browserLanguage: string | null | undefined): Language {
  if (isLanguage(saved)) return saved;
  if (!browserLanguage) return FALLBACK_LANGUAGE;
  return browserLanguage.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}
