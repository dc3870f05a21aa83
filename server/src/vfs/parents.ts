// The folders above a write target: a write never goes through a file where a folder must be.
import { joinVirtualPath } from '@clipnest/contract';
import { AppError } from '../errors.js';
import { storageToAppError } from './errors.js';
import { isStorageError, type Entry } from '../storage/types.js';
import { driverOf } from './drivers.js';
import type { Resolved } from './types.js';

/**
 * 409 when a file sits where a parent folder of the target must be. Object stores would happily write
 * `a.txt/b` next to a file `a.txt`; the tree keeps one shape for every storage. The nearest existing
 * ancestor decides (a folder means every one above it is a folder too).
 */
export async function assertParentsAreFolders(resolved: Resolved): Promise<void> {
  let dir = resolved.driverPath;
  while (dir.includes('/')) {
    dir = dir.slice(0, dir.lastIndexOf('/'));
    let entry: Entry;
    try {
      entry = await driverOf(resolved).stat(dir);
    } catch (error) {
      if (isStorageError(error, 'not_found')) continue;
      throw storageToAppError(error, 'folder');
    }
    if (entry.isDir) return;
    const where = joinVirtualPath(resolved.mount.path, dir);
    throw AppError.conflict(`a file is in the way: ${where} is a file, not a folder`);
  }
}

/** 409 unless the parent of a resolved path is a folder (a mount's root always is). */
export async function assertParentFolder(resolved: Resolved): Promise<void> {
  const dir = resolved.driverPath.includes('/')
    ? resolved.driverPath.slice(0, resolved.driverPath.lastIndexOf('/'))
    : '';
  if (dir === '') return;
  let parent: Entry | undefined;
  try {
    parent = await driverOf(resolved).stat(dir);
  } catch (error) {
    if (!isStorageError(error, 'not_found')) throw storageToAppError(error, 'folder');
  }
  if (!parent?.isDir) throw AppError.conflict(`the parent folder of ${resolved.path} does not exist`);
}
