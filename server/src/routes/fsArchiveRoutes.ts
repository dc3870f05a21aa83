import { fsArchiveEntryQuerySchema, fsPathQuerySchema } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readQuery } from '../http/input.js';
import { replyContent } from '../http/replyContent.js';
import type { ArchiveService } from '../services/fs/archives/archiveService.js';
import { servingPolicy } from '../security/inlineContent.js';

/** GET /api/fs/archive?path= (the listing) and /api/fs/archive/entry?path=&entry= (one entry's bytes). */
export function fsArchiveRoutes(deps: { archives: ArchiveService; guard: Guard }) {
  const { archives, guard } = deps;
  return new Hono<AppEnv>()
    .get('/archive', async (c) => {
      const principal = await guard.authenticated(c);
      return ok(c, await archives.list(principal, readQuery(c, fsPathQuerySchema).path, c.req.raw.signal));
    })
    .get('/archive/entry', async (c) => {
      const principal = await guard.authenticated(c);
      const q = readQuery(c, fsArchiveEntryQuerySchema);
      const opened = await archives.entry(principal, q.path, q.entry, c.req.raw.signal);
      const policy = servingPolicy(opened.mimetype);
      const forced = q.download === '1' || q.download === 'true';
      const modified = opened.entry.modified ? new Date(opened.entry.modified) : new Date(0);
      return replyContent(c, {
        kind: 'body',
        read: {
          stream: opened.stream,
          size: opened.entry.size,
          contentLength: opened.entry.size,
        },
        filename: opened.filename,
        policy,
        disposition: policy.inline && !forced ? 'inline' : 'attachment',
        etag: `"${opened.entry.size.toString(36)}-${modified.getTime().toString(36)}"`,
        lastModified: modified,
        size: opened.entry.size,
      });
    });
}
