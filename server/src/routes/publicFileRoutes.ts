import { shareArchiveEntryQuerySchema, shareArchiveQuerySchema, verifyFilePasswordSchema } from '@clipnest/contract';
import { Hono, type Context } from 'hono';
import { requestOrigin } from '../http/clientAddress.js';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson, readQuery } from '../http/input.js';
import { conditionalFrom, replyContent } from '../http/replyContent.js';
import { listArchive, openArchiveEntry } from '../services/fs/archives/archiveService.js';
import { servingPolicy } from '../security/inlineContent.js';
import type { ContentMode, FileServingService } from '../services/shares/serving/fileServingService.js';

/** Public share endpoints: metadata, password check, content (inline / attachment), office preview. */
export function publicFileRoutes(deps: { files: FileServingService; guard: Guard; trustProxy: boolean }) {
  const { files } = deps;

  const serve = (mode: ContentMode) => async (c: Context<AppEnv>) => {
    const result = await files.content({
      slug: c.req.param('slug') ?? '',
      mode,
      token: c.req.query('token'),
      password: c.req.query('password'),
      client: c.var.clientAddress,
      head: c.req.method === 'HEAD',
      conditional: conditionalFrom(c),
    });
    return replyContent(c, result);
  };

  return (
    new Hono<AppEnv>()
      .get('/public/files/:slug', async (c) => {
        // Hono answers HEAD with the GET route: a HEAD must not use up a view.
        if (c.req.method === 'HEAD') {
          await files.peek(c.req.param('slug'));
          return ok(c);
        }
        // The owner (admin session or the creating key) sees it uncounted and without the password.
        return ok(c, await files.publicInfo(c.req.param('slug'), await deps.guard.optional(c)));
      })
      .post('/public/files/:slug/verify', async (c) => {
        const principal = await deps.guard.optional(c);
        const { password } = await readJson(c, verifyFilePasswordSchema, { maxBytes: 16 * 1024 });
        return ok(c, await files.verify(c.req.param('slug'), password, c.var.clientAddress, principal), {
          message: 'password verified',
        });
      })
      .get('/file-download/:slug', serve('attachment'))
      .get('/file-view/:slug', serve('inline'))
      // A shared .zip/.tar/.tar.gz: its listing and single entries, read by ranges (never unpacked).
      .get('/public/files/:slug/archive', async (c) => {
        const q = readQuery(c, shareArchiveQuerySchema);
        if (c.req.method === 'HEAD') {
          await files.peek(c.req.param('slug'));
          return ok(c);
        }
        const { format, source } = await files.archiveSource(c.req.param('slug'), {
          token: q.token,
          password: q.password,
          client: c.var.clientAddress,
        });
        return ok(c, await listArchive(format, source, c.req.raw.signal));
      })
      .get('/public/files/:slug/archive/entry', async (c) => {
        const q = readQuery(c, shareArchiveEntryQuerySchema);
        if (c.req.method === 'HEAD') {
          await files.peek(c.req.param('slug'));
          return ok(c);
        }
        const { format, source } = await files.archiveSource(c.req.param('slug'), {
          token: q.token,
          password: q.password,
          client: c.var.clientAddress,
        });
        const opened = await openArchiveEntry(format, source, q.entry, c.req.raw.signal);
        const policy = servingPolicy(opened.mimetype);
        const forced = q.download === '1' || q.download === 'true';
        const modified = opened.entry.modified ? new Date(opened.entry.modified) : new Date(0);
        return replyContent(c, {
          kind: 'body',
          read: { stream: opened.stream, size: opened.entry.size, contentLength: opened.entry.size },
          filename: opened.filename,
          policy,
          disposition: policy.inline && !forced ? 'inline' : 'attachment',
          etag: `"${opened.entry.size.toString(36)}-${modified.getTime().toString(36)}"`,
          lastModified: modified,
          size: opened.entry.size,
        });
      })
      .get('/office-preview/:slug', async (c) => {
        if (c.req.method === 'HEAD') {
          await files.peek(c.req.param('slug'));
          return ok(c);
        }
        return ok(
          c,
          await files.officePreview(
            c.req.param('slug'),
            { token: c.req.query('token'), password: c.req.query('password'), client: c.var.clientAddress },
            requestOrigin(c, deps.trustProxy),
          ),
        );
      })
  );
}
