import { Permission, batchCopyCommitSchema, batchCopySchema } from '@clipnest/contract';
import { Hono } from 'hono';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import type { CopyService } from '../services/fs/tasks/copyService.js';

/** POST /api/fs/batch-copy and /api/fs/batch-copy-commit (docs/api/fs-tasks.md). */
export function fsCopyRoutes(deps: { copies: CopyService; guard: Guard }) {
  const { copies, guard } = deps;
  return new Hono<AppEnv>()
    .post('/batch-copy', async (c) => {
      const principal = await guard.permission(c, Permission.MOUNT_COPY, 'mount_copy');
      const result = await copies.batchCopy(principal, await readJson(c, batchCopySchema));
      return ok(c, result, { status: 202, message: `copy task ${result.task.id} started` });
    })
    .post('/batch-copy-commit', async (c) => {
      const principal = await guard.permission(c, Permission.MOUNT_COPY, 'mount_copy');
      const result = await copies.commit(principal, await readJson(c, batchCopyCommitSchema));
      return ok(c, result, { message: `${result.committed.length} committed, ${result.failed.length} failed` });
    });
}
