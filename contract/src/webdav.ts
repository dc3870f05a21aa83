// WebDAV settings page: where to connect, and a live check of what an identity sees at /dav/.
import { z } from './zod.js';

/** Who the live check lists `/dav/` for: the admin, or the holder of an API key. */
export const webdavCheckSchema = z.discriminatedUnion(
  'identity',
  [
    z.strictObject({ identity: z.literal('admin') }),
    z.strictObject({
      identity: z.literal('apikey'),
      key: z
        .string({ error: 'key is required' })
        .trim()
        .min(1, 'paste an API key')
        .max(512, 'an API key is at most 512 characters'),
    }),
  ],
  { error: 'identity must be admin or apikey' },
);
export type WebdavCheckInput = z.input<typeof webdavCheckSchema>;

/** Why a key cannot use WebDAV at all (the check answers it instead of a listing). */
export const WEBDAV_CHECK_PROBLEMS = ['unknown_key', 'disabled', 'expired', 'no_webdav_permission'] as const;
export type WebdavCheckProblem = (typeof WEBDAV_CHECK_PROBLEMS)[number];

/** Why `/dav/` is an empty collection for this identity. */
export type WebdavEmptyReason = 'no_mounts' | 'none_in_base_path';

export interface WebdavCheckEntry {
  name: string;
  /** The href a WebDAV client sees (percent-encoded, folders with a trailing slash). */
  href: string;
  is_dir: boolean;
}

export interface WebdavCheckResult {
  problem?: WebdavCheckProblem;
  identity?: { type: 'admin' | 'apikey'; name: string; basic_path: string; can_write: boolean };
  /** What a Depth 1 PROPFIND of /dav/ answers for this identity (its members). */
  entries: WebdavCheckEntry[];
  empty_reason?: WebdavEmptyReason;
}

/** What the page needs to show where clients connect: the configured public URL (else the page's own origin). */
export interface WebdavInfo {
  public_url: string | null;
  admin_username: string;
}

/** A WebDAV lock as the admin sees it (GET /api/admin/webdav/locks); `id` breaks it (DELETE …/locks/:id). */
export const webdavLockViewSchema = z.object({
  /** The lock token without its `urn:uuid:` prefix. */
  id: z.string(),
  path: z.string(),
  depth: z.enum(['0', 'infinity']),
  scope: z.enum(['exclusive', 'shared']),
  /** The `<D:owner>` the client sent (XML, often a name or a URL), '' when none. */
  owner: z.string(),
  holder: z.object({
    type: z.enum(['admin', 'apikey']),
    id: z.string(),
    /** The key's name (null once the key is gone) or the admin's username. */
    name: z.string().nullable(),
  }),
  timeout_seconds: z.number().int(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type WebdavLockView = z.infer<typeof webdavLockViewSchema>;

/** The `:id` of DELETE /api/admin/webdav/locks/:id: a lock token's UUID. */
export const webdavLockIdSchema = z.string().regex(/^[0-9a-fA-F-]{36}$/, 'a lock id is the UUID of its token');

/** Doors a secret is guessed through; an address blocked at one is blocked at every door of that secret. */
export const SECRET_DOORS = ['login', 'second_factor', 'webdav', 'api_key', 'paste', 'file'] as const;
export type SecretDoor = (typeof SECRET_DOORS)[number];

/** An address the secret-attempt limiter refuses now (GET /api/admin/webdav/blocked). */
export const blockedAddressViewSchema = z.object({
  /** Opaque; clears the block (DELETE /api/admin/webdav/blocked/:id). */
  id: z.string(),
  /** The client address (IPv4, or an IPv6 /64). */
  address: z.string(),
  /** The door of the last wrong secret. */
  door: z.enum(SECRET_DOORS),
  /** When the last allowed wrong secret arrived (null when not known: recorded before this was kept). */
  since: z.string().nullable(),
  /** When the window ends and the address may try again. */
  until: z.string(),
  failures: z.number().int(),
});
export type BlockedAddressView = z.infer<typeof blockedAddressViewSchema>;

/** The `:id` of DELETE /api/admin/webdav/blocked/:id. */
export const blockedAddressIdSchema = z.string().regex(/^[0-9a-f]{64}$/, 'not a blocked address id');
