/**
 * Text pastes (spec §3 "Text share", §5, §7 Pastes, §9). Full API notes: docs/api/pastes.md.
 *
 * NOTE FOR THE WEB SIDE — decisions the client must follow:
 * - `GET /api/paste/{slug}` on a password-protected paste answers **200** with
 *   `data = { slug, requires_password: true }` (a {@link PasteLocked}); it never sends a 401 there, so a
 *   logged-in admin is not logged out by the client's 401 handling. Use `isPasteLocked(data)` to tell.
 *   Then `POST /api/paste/{slug} {password}` answers 200 with a {@link PasteView} or **401 "wrong password"**
 *   (the body holds a password, so spec §5 says: show the server message).
 *   The owner (admin, or the key that created it) gets the content without the password.
 *   After 10 wrong passwords for one paste from one client within 15 minutes: **429** with `Retry-After`
 *   and a message to show as is.
 * - Expired or exhausted (views used up) pastes answer **410** everywhere (view, unlock, raw). A slug that
 *   never existed, or a paste already deleted (by hand or by the background sweep), answers **404**.
 * - Every successful `GET/POST /api/paste/{slug}` and `GET /api/raw/{slug}` counts one view, owner included.
 *   Management reads (`GET /api/pastes`, `GET /api/pastes/{id}`) never count.
 * - Create needs TEXT permission or admin (anonymous → 401, key without TEXT → 403); content > 10 MB → 413;
 *   taken slug → 409 "the link suffix is taken, try another suffix".
 * - In create/update, an empty string for `password`, `slug` or `remark` means "not given"
 *   (update: `remark: ''` clears the remark; `clear_password: true` removes the password).
 * - Expiry: `expires_in` (hours, 0 = never; presets SHARE_EXPIRY_PRESET_HOURS in shares.ts) or `expires_at`
 *   (ISO date in the future, or null = never). Not both.
 */
import { z } from './zod.js';
import type { ListPage } from './envelope.js';
import type { E2eeParams } from './e2ee.js';
import {
  e2eeParamsSchema,
  expiresInSchema,
  maxViewsSchema,
  remarkSchema,
  sharePasswordSchema,
  slugSchema,
} from './shares.js';

/** Spec §9: paste list default limit. */
export const PASTE_LIST_DEFAULT_LIMIT = 10;
export const PASTE_LIST_MAX_LIMIT = 100;
export const PASTE_BATCH_MAX = 1000;

export const PASTE_TYPES = ['markdown', 'text'] as const;
export type PasteType = (typeof PASTE_TYPES)[number];

/** Spec §8 texts the server sends (the web may show `message` as is). */
export const PasteMessages = {
  contentEmpty: 'the text content cannot be empty',
  contentTooLarge: 'the content is too large (10 MB at most)',
  slugTaken: 'the link suffix is taken, try another suffix',
  wrongPassword: 'wrong password',
  gone: 'this paste has expired or reached its view limit',
  notFound: 'paste not found',
} as const;

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

export const pasteContentSchema = z
  .string({ error: PasteMessages.contentEmpty })
  .refine((s) => s.trim().length > 0, { message: PasteMessages.contentEmpty });

export const pasteTypeSchema = z.enum(PASTE_TYPES, { error: 'type must be "markdown" or "text"' });

/** ISO date (in the future — checked by the server against its clock), or null for never. */
export const pasteExpiresAtSchema = z.union([
  z.null(),
  z.iso.datetime({ offset: true, message: 'expires_at must be an ISO 8601 date or null' }),
]);

const optionalSlug = z.preprocess(emptyToUndefined, slugSchema.optional());
const optionalPassword = z.preprocess(emptyToUndefined, sharePasswordSchema.optional());

const noBothExpiry = {
  check: (v: { expires_in?: number | undefined; expires_at?: string | null | undefined }) =>
    v.expires_in === undefined || v.expires_at === undefined,
  message: { message: 'send either expires_in or expires_at, not both', path: ['expires_at'] },
};

/** POST /api/paste */
export const createPasteSchema = z
  .strictObject({
    content: pasteContentSchema,
    type: pasteTypeSchema.default('markdown'),
    remark: remarkSchema.optional(),
    slug: optionalSlug,
    password: optionalPassword,
    expires_in: expiresInSchema.optional(),
    expires_at: pasteExpiresAtSchema.optional(),
    max_views: maxViewsSchema.default(0),
    /**
     * End-to-end encrypted paste (docs/encryption.md): `content` is base64url ciphertext of the content,
     * remark and type; the key stays in the link fragment. The share password, if any, is mixed in by the
     * client, so `password` and `remark` must not be sent.
     */
    encryption: e2eeParamsSchema.optional(),
  })
  .refine(noBothExpiry.check, noBothExpiry.message)
  .refine((v) => v.encryption === undefined || v.encryption.kind === 'paste', {
    message: 'encryption.kind must be paste',
    path: ['encryption', 'kind'],
  })
  .refine((v) => v.encryption === undefined || /^[A-Za-z0-9_-]+$/.test(v.content), {
    message: 'an encrypted paste sends its ciphertext as base64url',
    path: ['content'],
  })
  .refine((v) => v.encryption === undefined || v.password === undefined, {
    message: 'an encrypted paste mixes its password in on the client: do not send password',
    path: ['password'],
  })
  .refine((v) => v.encryption === undefined || !v.remark, {
    message: 'an encrypted paste keeps its remark inside the ciphertext: do not send remark',
    path: ['remark'],
  });
export type CreatePasteInput = z.input<typeof createPasteSchema>;
export type CreatePaste = z.output<typeof createPasteSchema>;

/** PUT /api/pastes/{id}: every field optional; omitted fields stay as they are. */
export const updatePasteSchema = z
  .strictObject({
    content: pasteContentSchema.optional(),
    type: pasteTypeSchema.optional(),
    remark: remarkSchema.optional(),
    slug: optionalSlug,
    /** A non-empty string sets a new password; '' or omitted keeps the current one. */
    password: optionalPassword,
    /** true removes the password. */
    clear_password: z.boolean().optional(),
    expires_in: expiresInSchema.optional(),
    expires_at: pasteExpiresAtSchema.optional(),
    max_views: maxViewsSchema.optional(),
    /** true sets `views` back to 0 (e.g. to reopen an exhausted paste). */
    reset_views: z.boolean().optional(),
  })
  .refine(noBothExpiry.check, noBothExpiry.message)
  .refine((v) => !(v.password !== undefined && v.clear_password === true), {
    message: 'send either password or clear_password, not both',
    path: ['password'],
  });
export type UpdatePasteInput = z.input<typeof updatePasteSchema>;
export type UpdatePaste = z.output<typeof updatePasteSchema>;

/** POST /api/paste/{slug} */
export const unlockPasteSchema = z.strictObject({
  password: z.string({ error: 'password is required' }).max(256, 'the password may be at most 256 characters'),
});
export type UnlockPasteInput = z.input<typeof unlockPasteSchema>;

export const PASTE_SORT_FIELDS = ['created_at', 'updated_at', 'expires_at', 'views', 'slug'] as const;
export type PasteSortField = (typeof PASTE_SORT_FIELDS)[number];

const intParam = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

/** GET /api/pastes query. `offset` wins over `page` when both are sent. */
export const listPastesQuerySchema = z.object({
  page: intParam('page', 1, 1_000_000).default(1),
  limit: intParam('limit', 1, PASTE_LIST_MAX_LIMIT).default(PASTE_LIST_DEFAULT_LIMIT),
  offset: intParam('offset', 0, 1_000_000_000).optional(),
  /** Matches slug, remark and content (case-insensitive for ASCII). */
  search: z.string().trim().max(200, 'search is too long').optional(),
  sort: z
    .enum(PASTE_SORT_FIELDS, { error: `sort must be one of ${PASTE_SORT_FIELDS.join(', ')}` })
    .default('created_at'),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).default('desc'),
});
export type ListPastesQueryInput = z.input<typeof listPastesQuerySchema>;
export type ListPastesQuery = z.output<typeof listPastesQuerySchema>;

/** DELETE (or POST) /api/pastes/batch-delete */
export const batchDeletePastesSchema = z.strictObject({
  ids: z
    .array(z.string().min(1).max(64), { error: 'ids must be a list of paste ids' })
    .min(1, 'select at least one paste')
    .max(PASTE_BATCH_MAX, `at most ${PASTE_BATCH_MAX} pastes at once`),
});
export type BatchDeletePastesInput = z.input<typeof batchDeletePastesSchema>;

/** POST /api/pastes/clear-expired */
export const clearExpiredPastesSchema = z.strictObject({
  clearExpired: z.literal(true, { error: 'clearExpired must be true' }),
});
export type ClearExpiredPastesInput = z.input<typeof clearExpiredPastesSchema>;

// ---------- responses ----------

/** data of GET /api/paste/{slug} when a password is needed (status 200). */
export interface PasteLocked {
  slug: string;
  requires_password: true;
}

/** data of a successful view (GET or POST /api/paste/{slug}). */
export interface PasteView {
  slug: string;
  type: PasteType;
  content: string;
  remark: string;
  created_at: string;
  expires_at: string | null;
  /** 0 = unlimited. */
  max_views: number;
  /** Views including this one. */
  views: number;
  /** null when unlimited; 0 means this was the last view. */
  remaining_views: number | null;
  has_password: boolean;
  requires_password: false;
  /** true for the admin or the key that created it. */
  is_owner: boolean;
  /** Only present for the owner (for PUT /api/pastes/{id}). */
  id?: string;
  /** Parameters of an end-to-end encrypted paste (content is then ciphertext), else null. */
  encryption: E2eeParams | null;
}

export type PasteViewResult = PasteView | PasteLocked;

export function isPasteLocked(data: PasteViewResult): data is PasteLocked {
  return data.requires_password;
}

/** data of POST /api/paste (201). */
export interface PasteCreated {
  id: string;
  slug: string;
  /** Path of the view page, e.g. "/paste/abc". */
  url: string;
  /** Path of the raw text, e.g. "/api/raw/abc". */
  raw_url: string;
  type: PasteType;
  remark: string;
  has_password: boolean;
  expires_at: string | null;
  max_views: number;
  created_at: string;
  encrypted: boolean;
}

/** A row of GET /api/pastes. */
export interface PasteListItem {
  id: string;
  slug: string;
  type: PasteType;
  remark: string;
  /** First 200 characters of the content ('' for an encrypted paste). */
  preview: string;
  /** Content size in UTF-8 bytes. */
  size: number;
  has_password: boolean;
  expires_at: string | null;
  max_views: number;
  views: number;
  remaining_views: number | null;
  /** Expired by date or out of views. */
  expired: boolean;
  /** End-to-end encrypted: the server holds ciphertext only (size and dates are all it can show). */
  encrypted: boolean;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export type PasteListResponse = ListPage<PasteListItem>;

/** GET /api/pastes/{id} and PUT /api/pastes/{id}: the row with its content. */
export interface PasteDetail extends PasteListItem {
  content: string;
}

/** batch-delete and clear-expired. */
export interface PastesDeleted {
  deleted: number;
}
