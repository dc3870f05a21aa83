import { createBackupSchema, restoreBackupSchema, BACKUP_MODULES } from '@clipnest/contract';
import { Hono } from 'hono';
import { AppError } from '../errors.js';
import type { Guard } from '../http/auth.js';
import type { AppEnv } from '../http/env.js';
import { ok } from '../http/envelope.js';
import { readJson } from '../http/input.js';
import type { BackupScheduler } from '../services/admin/backup/backupScheduler.js';
import type { BackupService } from '../services/admin/backup/backupService.js';

export function backupRoutes(deps: { backups: BackupService; backupScheduler: BackupScheduler; guard: Guard }) {
  const { backups, backupScheduler, guard } = deps;
  return new Hono<AppEnv>()
    .get('/modules', async (c) => {
      await guard.admin(c);
      return ok(c, await backups.modules());
    })
    .post('/create', async (c) => {
      await guard.admin(c);
      const input = await readJson(c, createBackupSchema);
      if (input.backup_type === 'modules' && !input.selected_modules?.length) {
        throw AppError.validation('choose at least one module to back up', [
          { path: 'selected_modules', message: 'at least one module is required' },
        ]);
      }
      const file = await backups.create(input.backup_type === 'full' ? BACKUP_MODULES : (input.selected_modules ?? []));
      const stamp = file.created_at.replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
      const name = `clipnest-backup-${input.backup_type === 'full' ? 'full' : 'modules'}-${stamp}.json`;
      c.header('Content-Disposition', `attachment; filename="${name}"`);
      return c.json(file, 200);
    })
    .get('/schedule', async (c) => {
      await guard.admin(c);
      return ok(c, await backupScheduler.status());
    })
    .post('/schedule/run', async (c) => {
      await guard.admin(c);
      const file = await backupScheduler.runNow();
      return ok(c, await backupScheduler.status(), { message: `backup ${file} written` });
    })
    .post('/preview', async (c) => {
      await guard.admin(c);
      const input = await readJson(c, restoreBackupSchema, { maxBytes: backups.maxBytes });
      return ok(c, await backups.preview(input.backup, input.mode, input.source_encryption_key));
    })
    .post('/restore', async (c) => {
      await guard.admin(c);
      const input = await readJson(c, restoreBackupSchema, { maxBytes: backups.maxBytes });
      return ok(c, await backups.restore(input.backup, input.mode, input.source_encryption_key), {
        message: 'backup restored',
      });
    });
}
