import { textIn } from './i18n';

/** Numbers, sizes, speeds, durations and dates in the reader's language; relative phrases ("in 3 days", "5 minutes ago"). */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

// Building an Intl formatter costs milliseconds (locale data), using one microseconds: one per language and options.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>(
  key: string,
  make: () => T,
): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}
const numberFormat = (lang: string | undefined, digits?: number) =>
  cached(`n|${lang}|${digits}`, () =>
    digits === undefined
      ? new Intl.NumberFormat(lang)
      : new Intl.NumberFormat(lang, { maximumFractionDigits: digits, minimumFractionDigits: 0 }),
  );

/**
 * Whole numbers under 1000 are written the same in every language the app speaks, and the first Intl formatter
 * of a page costs tens of milliseconds of locale data (4× that on a slow phone): the first screens never pay it.
 */
const plain = (value: number) => Number.isInteger(value) && value >= 0 && value < 1000;

/**
 * `value` rounded to at most `digits` decimals as English and Chinese write it below 1000 (no grouping, "." as
 * the decimal mark), or undefined where another language or a grouped number needs Intl. Like Intl, it rounds
 * half up the shortest decimal that reads back as the same number (1.45 → "1.5"), not the binary value.
 */
function plainDecimal(value: number, digits: number, lang: string | undefined): string | undefined {
  const text = String(value);
  if (!lang || !/^(en|zh)\b/i.test(lang) || !(value >= 0) || text.includes('e')) return undefined;
  const [whole, fraction = ''] = text.split('.');
  const scale = 10 ** digits;
  const scaled =
    Number(whole + fraction.slice(0, digits).padEnd(digits, '0')) + ((fraction[digits] ?? '0') >= '5' ? 1 : 0);
  const rounded = scaled / scale;
  return rounded < 1000 ? String(rounded) : undefined;
}

/** 2147483648 → "2,147,483,648" (grouping as the language writes it). */
export function formatNumber(value: number, lang?: string): string {
  return plain(value) ? String(value) : numberFormat(lang).format(value);
}

/** 1536 → "1.5 KB" (binary steps, one decimal under 100). Locale-aware digits. */
export function formatBytes(bytes: number, lang?: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const text = plain(value)
    ? String(value)
    : (plainDecimal(value, digits, lang) ?? numberFormat(lang, digits).format(value));
  return `${text} ${BYTE_UNITS[unit]}`;
}

/** Bytes per second → "3.2 MB/s". */
export function formatSpeed(bytesPerSecond: number, lang?: string): string {
  return `${formatBytes(bytesPerSecond, lang)}/s`;
}

/** Seconds → clock text: "1:05:09" past an hour, else "4:07". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

export function formatDateTime(iso: string, lang: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return cached(`d|${lang}`, () => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' })).format(
    date,
  );
}

/** Offsets with a name of their own ("yesterday", "next week", 前天) in relativeTime.named. */
const NAMED: Partial<Record<Intl.RelativeTimeFormatUnit, Record<number, string>>> = {
  day: { [-2]: 'dayM2', [-1]: 'dayM1', 1: 'dayP1', 2: 'dayP2' },
  week: { [-1]: 'weekM1', 1: 'weekP1' },
  month: { [-1]: 'monthM1', 1: 'monthP1' },
  year: { [-1]: 'yearM1', 1: 'yearP1' },
};

/**
 * The phrase from the app's texts (the same words Intl.RelativeTimeFormat with numeric: 'auto' writes, checked by
 * format.test.ts), so a page showing "5 minutes ago" does not build that formatter: ~100 ms on a phone.
 */
function relativeText(value: number, unit: Intl.RelativeTimeFormatUnit, lang: string): string | undefined {
  if (value === 0) return textIn(lang, 'relativeTime.now');
  const named = NAMED[unit]?.[value];
  if (named) return textIn(lang, `relativeTime.named.${named}`);
  return textIn(lang, `relativeTime.${value < 0 ? 'ago' : 'in'}.${unit}`, { count: Math.abs(value) });
}

export function formatRelative(iso: string, lang: string, now = Date.now()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const seconds = Math.round((date.getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  const [unit, size] = UNITS.find(([, size]) => abs >= size) ?? ['second', 1];
  const value = Math.round(seconds / size);
  return (
    (Math.abs(value) < 1000 ? relativeText(value, unit, lang) : undefined) ??
    cached(`r|${lang}`, () => new Intl.RelativeTimeFormat(lang, { numeric: 'auto' })).format(value, unit)
  );
}

export function isPast(iso: string | null, now = Date.now()): boolean {
  if (!iso) return false;
  const t = new Date(iso).getTime();
  return !Number.isNaN(t) && t <= now;
}
