import { fsThumbnailQuerySchema } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { readQuery } from '../http/input.js';
import { etagMatches } from '../http/range.js';
import type { ThumbnailService } from '../services/fs/thumbnails/thumbnailService.js';

/**
 * GET /api/fs/thumbnail?path=&size=&format=&v=: a small WebP (or JPEG) of an image in the tree, for the
 * explorer's grid and gallery. Same rights as a download (MOUNT_VIEW inside the key's base path); 415 for
 * what is not an image, 413 for originals over 50 MB or 40 megapixels (the client shows an icon for both).
 */
export function fsThumbnailRoutes(deps: { thumbnails: ThumbnailService; guard: Guard }) {
  return new Hono<AppEnv>().get('/thumbnail', async (c) => {
    const principal = await deps.guard.authenticated(c);
    const q = readQuery(c, fsThumbnailQuerySchema);
    const thumb = await deps.thumbnails.thumbnail(principal, q.path, {
      ...(q.size !== undefined ? { size: q.size } : {}),
      ...(q.format ? { format: q.format } : {}),
      fresh: (etag) => etagMatches(c.req.header('if-none-match'), etag),
    });
    c.header('ETag', thumb.etag);
    // With v (the object's ETag) the URL changes with the object, so the browser may keep it; else revalidate.
    c.header('Cache-Control', q.v ? 'private, max-age=604800, immutable' : 'private, no-cache');
    c.header('X-Content-Type-Options', 'nosniff');
    if (!thumb.bytes) return c.body(null, 304);
    c.header('Content-Type', thumb.contentType);
    c.header('Content-Length', String(thumb.bytes.length));
    c.header('X-Thumbnail-Cache', thumb.cached ? 'hit' : 'miss');
    return c.body(new Uint8Array(thumb.bytes), 200);
  });
}
