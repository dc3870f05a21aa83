import type { Operations } from '../operation.js';
import { adminOperations } from './admin.js';
import { apiKeyOperations } from './apiKeys.js';
import { auditLogOperations } from './auditLog.js';
import { backupOperations } from './backup.js';
import { fileOperations } from './files.js';
import { folderShareOperations } from './folderShares.js';
import { fsOperations } from './fs.js';
import { loginFlowOperations } from './loginFlows.js';
import { pasteOperations } from './pastes.js';
import { securityOperations } from './security.js';
import { settingsOperations } from './settings.js';
import { storageOperations } from './storage.js';
import { systemOperations } from './system.js';
import { taskOperations } from './tasks.js';
import { uploadOperations } from './uploads.js';
import { uploadRequestOperations } from './uploadRequests.js';

/**
 * Every described route, by the file that describes it (server/src/http/openapi/operations/<file>.ts). A route
 * added to the app needs an entry in the file of its group (or a new file listed here): the route-table test
 * (server/test/openapiRoutes.int.test.ts) fails until then.
 */
export const OPERATION_FILES: Record<string, Operations> = {
  'system.ts': systemOperations,
  'apiKeys.ts': apiKeyOperations,
  'loginFlows.ts': loginFlowOperations,
  'settings.ts': settingsOperations,
  'backup.ts': backupOperations,
  'pastes.ts': pasteOperations,
  'storage.ts': storageOperations,
  'files.ts': fileOperations,
  'uploads.ts': uploadOperations,
  'uploadRequests.ts': uploadRequestOperations,
  'fs.ts': fsOperations,
  'tasks.ts': taskOperations,
  'admin.ts': adminOperations,
  'security.ts': securityOperations,
  'auditLog.ts': auditLogOperations,
  'folderShares.ts': folderShareOperations,
};

/** All descriptions in one table; a key described twice throws (two files must not disagree). */
export function allOperations(files: Record<string, Operations> = OPERATION_FILES): Operations {
  const all: Operations = {};
  const where = new Map<string, string>();
  for (const [file, operations] of Object.entries(files)) {
    for (const [key, operation] of Object.entries(operations)) {
      const other = where.get(key);
      if (other) throw new Error(`${key} is described twice: in operations/${other} and operations/${file}`);
      where.set(key, file);
      all[key] = operation;
    }
  }
  return all;
}
