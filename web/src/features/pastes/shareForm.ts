/** Share options (spec §3, §5, §9): state, validation and the request body. Pure, unit-tested. */
import type { CreatePasteInput, PasteType } from '@clipnest/contract';
import { PASTE_MAX_BYTES, RESERVED_SLUGS, SLUG_MAX, SLUG_PATTERN, utf8Length } from '@clipnest/contract/limits';

/** Expiry presets in hours (1 h, 1 d, 7 d, 30 d, never). */
export const EXPIRY_CHOICES = ['1', '24', '168', '720', '0'] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

export interface ShareOptionsState {
  remark: string;
  slug: string;
  password: string;
  expiry: ExpiryChoice;
  /** As typed; empty means 0 (unlimited). */
  maxViews: string;
  /** End-to-end encrypted in the browser (docs/encryption.md); the password then becomes part of the key. */
  encrypted?: boolean;
}

export const DEFAULT_SHARE_OPTIONS: ShareOptionsState = {
  remark: '',
  slug: '',
  password: '',
  expiry: '24',
  maxViews: '',
};

export type ShareFieldError =
  'slugPattern' | 'slugTooLong' | 'slugReserved' | 'maxViewsInvalid' | 'remarkTooLong' | 'passwordTooLong';

export type ContentError = 'contentEmpty' | 'contentTooLarge';

export function slugError(slug: string): ShareFieldError | undefined {
  const s = slug.trim();
  if (!s) return undefined;
  if (s.length > SLUG_MAX) return 'slugTooLong';
  if (!SLUG_PATTERN.test(s)) return 'slugPattern';
  if ((RESERVED_SLUGS as readonly string[]).includes(s.toLowerCase())) return 'slugReserved';
  return undefined;
}

export function parseMaxViews(value: string): number | null {
  const v = value.trim();
  if (!v) return 0;
  if (!/^\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n <= 1_000_000_000 ? n : null;
}

export function validateShareOptions(
  state: ShareOptionsState,
): Partial<Record<keyof ShareOptionsState, ShareFieldError>> {
  const errors: Partial<Record<keyof ShareOptionsState, ShareFieldError>> = {};
  const slug = slugError(state.slug);
  if (slug) errors.slug = slug;
  if (parseMaxViews(state.maxViews) === null) errors.maxViews = 'maxViewsInvalid';
  if (state.remark.length > 1000) errors.remark = 'remarkTooLong';
  if (state.password.length > 256) errors.password = 'passwordTooLong';
  return errors;
}

export function contentError(content: string): ContentError | undefined {
  if (!content.trim()) return 'contentEmpty';
  if (utf8Length(content) > PASTE_MAX_BYTES) return 'contentTooLarge';
  return undefined;
}

/** The POST /api/paste body; empty optional fields are left out (spec §5). */
export function toCreateInput(content: string, type: PasteType, state: ShareOptionsState): CreatePasteInput {
  const input: CreatePasteInput = {
    content,
    type,
    expires_in: Number(state.expiry),
    max_views: parseMaxViews(state.maxViews) ?? 0,
  };
  if (state.remark.trim()) input.remark = state.remark.trim();
  if (state.slug.trim()) input.slug = state.slug.trim();
  if (state.password) input.password = state.password;
  return input;
}

/** A file name for exports, from the first heading or line. */
export function exportBaseName(content: string, fallback = 'clipnest'): string {
  const line = content
    .split('\n')
    .map((l) => l.replace(/^#{1,6}\s+/, '').trim())
    .find((l) => l.length > 0);
  const cleaned = (line ?? '')
    .replace(/[\\/:*?"<>|#`$[\]{}!]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 60)
    .trim();
  return cleaned || fallback;
}
