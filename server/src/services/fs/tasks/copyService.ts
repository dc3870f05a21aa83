// POST /api/fs/batch-copy: every request becomes a `copy` task (tasks table), planned here (paths checked,
// folders walked into one item per file and folder) and run by TaskService through `runItem`.
// Same storage config: the storage copies by itself (S3 CopyObject / UploadPartCopy, local fs.copyFile).
// Across storages: the server streams read → write with backpressure (memory flat whatever the size).
import {
  Permission,
  TASK_LIMITS,
  type BatchCopyCommitInput,
  type BatchCopyInput,
  type BatchCopyResult,
} from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import type { TaskItemRow } from '../../../repositories/taskRepository.js';
import { newId } from '../../../lib/ids.js';
import { TREE_COPY_LIMITS } from '../../../vfs/copy.js';
import type { Vfs } from '../../../vfs/vfs.js';
import type { VfsEntry } from '../../../vfs/types.js';
import type { Principal } from '../../../auth/principal.js';
import type { NewTaskItem, TaskExecutor, TaskRunContext, TaskService } from './taskService.js';
import { walkFolder } from './walk.js';

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export class CopyService implements TaskExecutor {
  /** Tasks a WebDAV request waits for (by id), with the error their item failed on. */
  private readonly waiting = new Map<string, unknown>();

  constructor(private readonly deps: { vfs: Vfs; tasks: TaskService }) {
    deps.tasks.register('copy', this);
  }

  /** Checks every item (access on both ends, sources exist, no copy into itself), then starts the task. */
  async batchCopy(principal: Principal, input: BatchCopyInput): Promise<BatchCopyResult> {
    const { vfs } = this.deps;
    const items: NewTaskItem[] = [];
    const counted = { n: 0 };
    for (const [i, item] of input.items.entries()) {
      const source = vfs.normalise(item.sourcePath, `items.${i}.sourcePath`);
      const target = vfs.normalise(item.targetPath, `items.${i}.targetPath`);
      vfs.authorize(principal, source, Permission.MOUNT_COPY);
      vfs.authorize(principal, target, Permission.MOUNT_COPY);
      // Into itself, in the tree or in the storage (two mounts of one storage config are one tree).
      const relation = await vfs.relation(target, source);
      if (relation === 'same' || relation === 'inside') {
        throw AppError.validation(`cannot copy ${source} into itself (${target})`, [
          { path: `items.${i}.targetPath`, message: relation === 'same' ? 'is sourcePath' : 'inside sourcePath' },
        ]);
      }
      const entry = await vfs.stat(principal, source, Permission.MOUNT_COPY);
      if (entry.isMount && !entry.mountId)
        throw AppError.mountBoundary(`${source} is a virtual folder above mount points: copy the mounts inside it`);
      // The target is checked as a write (MOUNT_COPY, base path, not a mount point or virtual folder, no
      // file where a parent folder must be); a folder may merge into a mount's root.
      const targetMount = (
        await vfs.resolveWrite(principal, target, `items.${i}.targetPath`, {
          needed: Permission.MOUNT_COPY,
          allowMountRoot: true,
        })
      ).mount;
      if (targetMount.path === target && !entry.isDir)
        throw AppError.mountBoundary(`targetPath ${target} is a mount point: name the file inside it`, [
          { path: `items.${i}.targetPath`, message: 'is a mount point' },
        ]);
      await this.refuseKindClash(principal, entry, target, input.skipExisting);
      items.push({ source, target, isDir: entry.isDir, size: entry.isDir ? 0 : entry.size });
      if (!entry.isDir) {
        if (++counted.n > TASK_LIMITS.maxTaskFiles) throw this.tooMany();
        continue;
      }
      const below = await walkFolder(
        vfs,
        principal,
        source,
        {
          maxEntries: TASK_LIMITS.maxTaskFiles,
          maxDepth: TREE_COPY_LIMITS.maxDepth,
          what: 'a copy task',
        },
        counted,
      );
      for (const child of below) {
        items.push({
          source: child.path,
          target: target + child.path.slice(source.length),
          isDir: child.isDir,
          size: child.isDir ? 0 : child.size,
        });
      }
    }
    const first = input.items[0];
    const name =
      input.items.length === 1 && first
        ? `copy ${baseName(first.sourcePath)} → ${first.targetPath}`
        : `copy ${input.items.length} items`;
    const task = await this.deps.tasks.create(principal, {
      type: 'copy',
      name,
      options: {
        skipExisting: input.skipExisting,
        // For the task view's `subject` (clients title the task in their language from it).
        ...(first
          ? { subject: { source: first.sourcePath, target: first.targetPath, count: input.items.length } }
          : {}),
      },
      items,
    });
    return { task, requiresClientSideCopy: false };
  }

  /**
   * POST /api/fs/batch-copy-commit: files a client copied itself (the spec's client-side path) are checked
   * in the target mount and announced to the listing cache and search index.
   */
  async commit(principal: Principal, input: BatchCopyCommitInput) {
    const { vfs } = this.deps;
    const mount = await vfs.mountById(input.targetMountId);
    if (!mount || !(await vfs.mounts(principal)).some((m) => m.id === mount.id))
      throw AppError.notFound(`mount ${input.targetMountId} not found`);
    const committed: VfsEntry[] = [];
    const failed: Array<{ targetPath: string; error: string }> = [];
    for (const [i, file] of input.files.entries()) {
      const target = vfs.normalise(file.targetPath, `files.${i}.targetPath`);
      const resolved = await vfs.resolveWrite(principal, target, `files.${i}.targetPath`, {
        needed: Permission.MOUNT_COPY,
      });
      if (resolved.mount.id !== mount.id) {
        throw AppError.validation(`files.${i}.targetPath ${target} is not in mount ${mount.path}`, [
          { path: `files.${i}.targetPath`, message: 'in another mount' },
        ]);
      }
      try {
        const entry = await vfs.stat(principal, target, Permission.MOUNT_COPY);
        vfs.emit({ type: 'write', mountId: mount.id, path: target, entry });
        committed.push(entry);
      } catch (error) {
        failed.push({ targetPath: target, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return { committed, failed };
  }

  /**
   * One item through the vfs's copy engine (Vfs.copy, the same as WebDAV's): a file, or a folder alone (its
   * content is items of its own), or a whole tree for a WebDAV COPY / MOVE (`tree`: one item, the request's).
   */
  async runItem(ctx: TaskRunContext, item: TaskItemRow): Promise<{ skipped?: boolean; size?: number }> {
    const { vfs } = this.deps;
    const { principal, signal, options, onBytes } = ctx;
    const tree = options.tree === true;
    // Existing targets: WebDAV says (fail / replace); REST tasks overwrite files in place unless skipExisting.
    const overwrite =
      options.overwrite === 'fail' || options.overwrite === 'replace'
        ? options.overwrite
        : options.skipExisting === true
          ? 'skip'
          : 'merge';
    try {
      if (tree && options.move === true) {
        await vfs.move(principal, item.source, item.target, {
          overwrite: overwrite === 'replace' ? 'replace' : 'fail',
        });
        return {};
      }
      const result = await vfs.copy(principal, item.source, item.target, {
        overwrite,
        depth: tree ? 'infinity' : '0',
        signal,
        onProgress: onBytes,
        field: 'target',
      });
      return { ...(result.skipped ? { skipped: true } : {}), ...(tree ? { size: result.bytes } : {}) };
    } catch (error) {
      // A WebDAV request waiting for its task answers with what failed, status and all.
      if (this.waiting.has(item.task_id)) this.waiting.set(item.task_id, error);
      throw error;
    }
  }

  /**
   * A WebDAV COPY / MOVE of a folder: a copy task of one item (the tree) that shows in the task list, run by the
   * same engine as REST copy tasks; answers once it ended, throwing what failed as the request would have.
   */
  async transferTree(
    principal: Principal,
    op: 'copy' | 'move',
    from: string,
    to: string,
    options: { overwrite: 'fail' | 'replace' },
  ): Promise<void> {
    const id = newId();
    this.waiting.set(id, undefined);
    try {
      await this.deps.tasks.create(principal, {
        id,
        type: 'copy',
        name: `${op} ${baseName(from)} → ${to}`,
        options: {
          tree: true,
          ...(op === 'move' ? { move: true } : {}),
          overwrite: options.overwrite,
          subject: { source: from, target: to, count: 1 },
        },
        // Counted as one file: the task fails when the tree does (folder items never fail a task).
        items: [{ source: from, target: to, isDir: false, size: 0 }],
      });
      const row = await this.deps.tasks.finished(id);
      const error = this.waiting.get(id);
      if (error !== undefined) throw error;
      if (row.status === 'cancelled') throw AppError.conflict(`the ${op} of ${from} was cancelled`);
      if (row.status !== 'completed')
        throw new AppError('INTERNAL', `the ${op} of ${from} failed: ${row.error ?? row.status}`);
    } finally {
      this.waiting.delete(id);
    }
  }

  /** A file onto a folder (or a folder onto a file) is refused before anything is copied. */
  private async refuseKindClash(principal: Principal, source: VfsEntry, target: string, skipExisting: boolean) {
    let existing: VfsEntry;
    try {
      existing = await this.deps.vfs.stat(principal, target, Permission.MOUNT_COPY);
    } catch (error) {
      if (error instanceof AppError && error.kind === 'NOT_FOUND') return;
      throw error;
    }
    if (existing.isDir !== source.isDir && !skipExisting) {
      throw AppError.conflict(
        `${target} already exists as a ${existing.isDir ? 'folder' : 'file'}; ${source.path} is a ${source.isDir ? 'folder' : 'file'}`,
      );
    }
  }

  private tooMany(): AppError {
    return new AppError('PAYLOAD_TOO_LARGE', `a copy task holds at most ${TASK_LIMITS.maxTaskFiles} files and folders`);
  }
}
