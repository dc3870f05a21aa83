/** Pure helpers of the settings forms: form text ↔ API values, validation with the contract's schemas, server errors. */
import { SETTINGS, type SettingKey, type ValidationErrorData } from '@clipnest/contract';
import { isApiError } from '../../lib/api';

export type FormValues = Partial<Record<SettingKey, unknown>>;
export type FieldErrors = Partial<Record<SettingKey, string>>;

/** The value a form control holds → the value the API takes (numbers are typed as text). */
export function toApiValue(key: SettingKey, raw: unknown): unknown {
  if (SETTINGS[key].type !== 'number') return raw;
  if (typeof raw === 'number') return raw;
  const text = String(raw ?? '').trim();
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

/** The value the API holds → the value a form control edits. */
export function formValueOf(key: SettingKey, value: unknown): unknown {
  return SETTINGS[key].type === 'number' && typeof value === 'number' ? String(value) : value;
}

export function sameValue(key: SettingKey, a: unknown, b: unknown): boolean {
  return JSON.stringify(toApiValue(key, a)) === JSON.stringify(toApiValue(key, b));
}

/** Field errors from the contract's schemas, translated where a translation exists. */
export function validateSettings(
  values: FormValues,
  translate: (key: SettingKey, fallback: string) => string,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const [key, raw] of Object.entries(values) as [SettingKey, unknown][]) {
    const parsed = SETTINGS[key].schema.safeParse(toApiValue(key, raw));
    if (!parsed.success) errors[key] = translate(key, parsed.error.issues[0]?.message ?? 'invalid value');
  }
  return errors;
}

/** `data.fields` of a 400 from the settings API → errors by key. */
export function serverFieldErrors(error: unknown): FieldErrors {
  if (!isApiError(error) || typeof error.data !== 'object' || error.data === null) return {};
  const fields = (error.data as Partial<ValidationErrorData>).fields;
  if (!Array.isArray(fields)) return {};
  const out: FieldErrors = {};
  for (const field of fields) {
    if (field && typeof field.path === 'string' && field.path in SETTINGS) {
      out[field.path as SettingKey] = String(field.message);
    }
  }
  return out;
}
