// The storage half of the tree's writes: a target already resolved and checked (vfs.ts) meets its driver here,
// storage errors become AppErrors and each change is announced.
import { AppError } from '../errors.js';
import { storageToAppError } from './errors.js';
import { isStorageError, type Entry, type WriteBody, type WriteOptions } from '../storage/types.js';
import type { WriteLimit } from './deps.js';
import { driverOf } from './drivers.js';
import type { Resolved, VfsChange, VfsEntry } from './types.js';

type Emit = (change: VfsChange) => void;

/** Streams a body into a resolved file; a stream the driver stopped at the write limit is the limit's 413. */
export async function writeAt(
  resolved: Resolved,
  body: WriteBody,
  options: WriteOptions,
  limit: WriteLimit | undefined,
): Promise<Entry> {
  try {
    return await driverOf(resolved).write(resolved.driverPath, body, options);
  } catch (error) {
    // The driver stopped at the limit and removed what it had written.
    if (limit && options.maxBytes === limit.maxBytes && isStorageError(error, 'too_large')) {
      throw limit.tooLarge(limit.maxBytes + 1, true);
    }
    throw storageToAppError(error, 'file');
  }
}

/** Creates a folder at a resolved path and announces it; a mount's root is there already. */
export async function mkdirAt(resolved: Resolved, emit: Emit): Promise<VfsEntry> {
  try {
    if (resolved.driverPath !== '') await driverOf(resolved).mkdir(resolved.driverPath);
  } catch (error) {
    if (isStorageError(error, 'exists')) throw AppError.conflict(`a file named ${resolved.path} already exists`);
    throw storageToAppError(error, 'folder');
  }
  const entry: VfsEntry = {
    name: resolved.path.slice(resolved.path.lastIndexOf('/') + 1),
    path: resolved.path,
    isDir: true,
    size: 0,
    mountId: resolved.mount.id,
  };
  emit({ type: 'mkdir', mountId: resolved.mount.id, path: resolved.path, entry });
  return entry;
}

/** Removes checked targets (folders with their content); one already gone counts as removed. */
export async function removeAll(targets: readonly Resolved[], emit: Emit): Promise<string[]> {
  const removed: string[] = [];
  for (const target of targets) {
    try {
      await driverOf(target).remove(target.driverPath, { recursive: true });
    } catch (error) {
      if (!isStorageError(error, 'not_found')) throw storageToAppError(error, `path ${target.path}`);
    }
    removed.push(target.path);
    emit({ type: 'remove', mountId: target.mount.id, path: target.path });
  }
  return removed;
}

/** The storage's own move within one mount; an existing target is a 409. */
export async function moveWithinMount(from: Resolved, to: Resolved, emit: Emit): Promise<void> {
  try {
    await driverOf(from).move(from.driverPath, to.driverPath, { overwrite: false });
  } catch (error) {
    if (isStorageError(error, 'exists')) throw AppError.conflict(`${to.path} already exists`);
    if (isStorageError(error, 'not_found')) throw AppError.notFound(`${from.path} does not exist`);
    throw storageToAppError(error, 'file');
  }
  emit({ type: 'move', mountId: from.mount.id, path: from.path, toPath: to.path });
}
