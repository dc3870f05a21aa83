import { CLOUDPASTE_IMPORT_MAX_BYTES, cloudpasteImportSchema } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import type { CloudpasteImportService } from '../services/admin/cloudpasteImport/cloudpasteImportService.js';

/** POST /api/admin/import/cloudpaste (admin): a CloudPaste backup in, a report out. */
export function cloudpasteImportRoutes(deps: { cloudpasteImport: CloudpasteImportService; guard: Guard }) {
  const { cloudpasteImport, guard } = deps;
  return new Hono<AppEnv>().post('/cloudpaste', async (c) => {
    const admin = await guard.admin(c);
    // This route alone reads up to 110 MB (a 100 MB backup); every other JSON route keeps its 1 MB limit.
    const input = await readJson(c, cloudpasteImportSchema, { maxBytes: CLOUDPASTE_IMPORT_MAX_BYTES });
    const report = await cloudpasteImport.run(admin.adminId, input);
    return ok(c, report, { message: input.dry_run ? 'dry run: nothing was written' : 'CloudPaste backup imported' });
  });
}
