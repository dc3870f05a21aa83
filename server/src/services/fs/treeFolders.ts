import { AppError } from '../../errors.js';
import { hasMountBelow, longestMount } from '../../vfs/mountTable.js';
import type { Vfs } from '../../vfs/vfs.js';
import type { AdminPrincipal } from '../../auth/principal.js';

/** The server itself looking at the whole tree (not a request's caller). */
const SYSTEM: AdminPrincipal = { type: 'admin', adminId: 'system', username: 'system', tokenHash: '', expiresAt: '' };

/**
 * Whether `path` can be a key's base folder:
 * - 'ok': "/", a folder above mounts, a mount, or a path inside a mount: an existing folder, or one that does
 *   not exist yet (the first upload or mkdir makes it; on S3 an empty folder does not exist at all, so a fresh
 *   prefix could never be picked otherwise). A storage that does not answer does not block the key either.
 * - 'no_mount': no mount holds it, so nothing can ever be there (the typo case: `/team` for `/local/team`).
 * - 'not_a_folder': it is a file, or runs through one.
 */
export async function basePathState(
  vfs: Pick<Vfs, 'stat' | 'allMounts'>,
  path: string,
): Promise<'ok' | 'no_mount' | 'not_a_folder'> {
  const mounts = await vfs.allMounts();
  if (path === '/' || hasMountBelow(mounts, path)) return 'ok';
  const mount = longestMount(mounts, path);
  if (!mount) return 'no_mount';
  if (!mount.is_active || mount.path === path) return 'ok';
  try {
    return (await vfs.stat(SYSTEM, path)).isDir ? 'ok' : 'not_a_folder';
  } catch (error) {
    if (error instanceof AppError && error.kind === 'CONFLICT') return 'not_a_folder';
    return 'ok';
  }
}
