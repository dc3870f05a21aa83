// WebDAV settings page (issue 20): where to connect, and a live check of what an identity sees at /dav/.
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
