import type { Migration } from 'kysely';
import { foundation } from './0001_foundation.js';
import { pastes } from './0002_pastes.js';
import { storageFiles } from './0003_storage_files.js';
import { dailyStats } from './0004_daily_stats.js';
import { uploadSessions } from './0006_upload_sessions.js';
import { dashboardCounters } from './0007_dashboard_counters.js';
import { secretAttempts } from './0008_secret_attempts.js';
import { mounts } from './0010_mounts.js';
import { tasksAndSearch } from './0011_tasks_and_search.js';
import { localStorageRoots } from './0012_local_storage_roots.js';
import { webdav } from './0013_webdav.js';
import { e2ee } from './0016_e2ee.js';
import { scaleOut } from './0017_scale_out.js';
import { secretAttemptBlocks } from './0018_secret_attempt_blocks.js';
import { adminSecondFactor } from './0019_admin_second_factor.js';
import { folderShares } from './0020_folder_shares.js';
import { auditLog } from './0021_audit_log.js';
import { storageOptions } from './0022_storage_options.js';
import { bundlesAndUploadRequests } from './0023_bundles_and_upload_requests.js';
import { loginFlows } from './0024_login_flows.js';

/** Every migration, in order. Names sort lexicographically; never rename or edit a landed one. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_pastes': pastes,
  '0003_storage_files': storageFiles,
  '0004_daily_stats': dailyStats,
  '0006_upload_sessions': uploadSessions,
  '0007_dashboard_counters': dashboardCounters,
  '0008_secret_attempts': secretAttempts,
  '0010_mounts': mounts,
  '0011_tasks_and_search': tasksAndSearch,
  '0012_local_storage_roots': localStorageRoots,
  '0013_webdav': webdav,
  '0016_e2ee': e2ee,
  '0017_scale_out': scaleOut,
  '0018_secret_attempt_blocks': secretAttemptBlocks,
  '0019_admin_second_factor': adminSecondFactor,
  '0020_folder_shares': folderShares,
  '0021_audit_log': auditLog,
  '0022_storage_options': storageOptions,
  '0023_bundles_and_upload_requests': bundlesAndUploadRequests,
  '0024_login_flows': loginFlows,
};
