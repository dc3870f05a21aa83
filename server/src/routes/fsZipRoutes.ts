import { Permission, zipRequestSchema } from '@clipnest/contract';
import { Hono, type Context } from 'hono';
import type { Guard } from '../http/auth.js';
import { contentDisposition } from '../http/contentDisposition.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import type { PreparedZip, ZipService } from '../services/fs/zip/zipService.js';

function sendZip(c: Context<AppEnv>, zip: PreparedZip): Response {
  return new Response(zip.open(), {
    status: 200,
    headers: {
      'Content-Type': 'application/zip',
      'Content-Length': zip.length.toString(),
      'Content-Disposition': contentDisposition('attachment', zip.filename),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/**
 * Pack downloads (docs/api/fs-tasks.md "Zip downloads"): POST /api/fs/zip answers the zip itself (curl,
 * fetch); POST /api/fs/zip/link answers a 5-minute link whose GET the browser downloads natively.
 */
export function fsZipRoutes(deps: { zips: ZipService; guard: Guard; publicUrl?: string }) {
  const { zips, guard } = deps;
  return new Hono<AppEnv>()
    .post('/zip', async (c) => {
      const principal = await guard.permission(c, Permission.MOUNT_VIEW, 'mount_view');
      return sendZip(c, await zips.prepare(principal, await readJson(c, zipRequestSchema)));
    })
    .post('/zip/link', async (c) => {
      const principal = await guard.permission(c, Permission.MOUNT_VIEW, 'mount_view');
      const link = await zips.link(principal, await readJson(c, zipRequestSchema));
      const url = `${deps.publicUrl ?? ''}/api/fs/zip/${link.token}`;
      return ok(c, { url, expires_at: link.expires_at }, { message: 'zip link created' });
    })
    .get('/zip/:token', async (c) => sendZip(c, await zips.fromLink(c.req.param('token'))));
}
