import type { Messages } from '../locales/resources';

/**
 * Text lookup for the app's messages: dotted keys, `{{name}}` placeholders and plural forms in the i18next JSON v4
 * layout (`key_one`, `key_other`, … chosen by `Intl.PluralRules`, `key_zero` for a count of 0 when present), which
 * is all the app uses of i18next. Kept here instead of i18next + react-i18next: they were 15.8 KB br and the
 * largest part of the shell every route downloads and runs.
 */
export type MessageTree = { [key: string]: string | MessageTree };

type PluralSuffix = '_zero' | '_one' | '_two' | '_few' | '_many' | '_other';
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
type StripPlural<K> = K extends `${infer Base}${PluralSuffix}` ? Base : K;
type LeafKey = Leaves<Messages>;

/** Every text key, plural keys also without their suffix (`files.selected` for `files.selected_one`/`_other`). */
export type TKey = LeafKey | StripPlural<LeafKey>;
/** Placeholder values; `count` also picks the plural form. */
export type TOptions = { count?: number } & Record<string, unknown>;
export type TFunction = (key: TKey, options?: TOptions) => string;

/**
 * The plural category of `count`. English and Chinese, the app's languages, are written out (CLDR: English "one"
 * for exactly 1, Chinese always "other"; translate.test.ts checks them against Intl.PluralRules): building the
 * first Intl object of a page costs milliseconds of locale data. Other languages ask Intl.
 */
const pluralRules = new Map<string, Intl.PluralRules>();
export function pluralCategory(language: string, count: number): string {
  if (/^zh\b/i.test(language)) return 'other';
  if (/^en\b/i.test(language)) return Math.abs(count) === 1 ? 'one' : 'other';
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}

/** The string at a dotted key, or undefined (a missing key, or a key naming a group of texts). */
export function lookup(tree: MessageTree | undefined, key: string): string | undefined {
  let node: string | MessageTree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

/** `{{name}}` → the option's value; a placeholder with no value is left as written, so the gap shows. */
export function interpolate(text: string, options: TOptions | undefined): string {
  if (!options || !text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = options[name];
    return value === undefined || value === null ? whole : String(value);
  });
}

/** The text of `key` in `tree` for `language`, interpolated; the key itself when no text exists (as i18next does). */
export function translate(tree: MessageTree | undefined, language: string, key: string, options?: TOptions): string {
  let text: string | undefined;
  const count = options?.count;
  if (typeof count === 'number') {
    text =
      (count === 0 ? lookup(tree, `${key}_zero`) : undefined) ??
      lookup(tree, `${key}_${pluralCategory(language, count)}`) ??
      lookup(tree, `${key}_other`);
  }
  text ??= lookup(tree, key);
  return text === undefined ? key : interpolate(text, options);
}
