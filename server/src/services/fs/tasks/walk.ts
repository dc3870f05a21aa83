// Walks a folder through the vfs (paged listings), for copy tasks and zip downloads.
import { AppError } from '../../../errors.js';
import type { Principal } from '../../../auth/principal.js';
import type { Vfs } from '../../../vfs/vfs.js';
import type { VfsEntry } from '../../../vfs/types.js';

export interface WalkLimits {
  /** Entries (files + folders) before the walk gives up with 413. */
  maxEntries: number;
  /** Folder levels below the root before the walk gives up with 413 (default: unbounded). */
  maxDepth?: number;
  /** What the limit is called in the error message ("a copy task", "a zip"). */
  what: string;
}

/**
 * Every entry under `root` (a folder's virtual path), folders before their contents, depth first.
 * Listings go through the vfs, so permissions and base paths apply; a nested mount below is walked like a folder.
 */
export async function walkFolder(
  vfs: Pick<Vfs, 'list'>,
  principal: Principal,
  root: string,
  limits: WalkLimits,
  counted = { n: 0 },
): Promise<VfsEntry[]> {
  const out: VfsEntry[] = [];
  const stack: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 1 }];
  while (stack.length > 0) {
    const { dir, depth } = stack.pop() as { dir: string; depth: number };
    let cursor: string | undefined;
    const subfolders: string[] = [];
    do {
      const page = await vfs.list(principal, dir, { cursor, refresh: true });
      for (const entry of page.entries) {
        if (++counted.n > limits.maxEntries)
          throw new AppError(
            'PAYLOAD_TOO_LARGE',
            `${limits.what} holds at most ${limits.maxEntries} files and folders`,
          );
        out.push(entry);
        if (entry.isDir) subfolders.push(entry.path);
      }
      cursor = page.cursor;
    } while (cursor);
    if (subfolders.length > 0 && limits.maxDepth !== undefined && depth >= limits.maxDepth) {
      throw new AppError('PAYLOAD_TOO_LARGE', `${limits.what} goes at most ${limits.maxDepth} folders deep`);
    }
    for (let i = subfolders.length - 1; i >= 0; i--) stack.push({ dir: subfolders[i] as string, depth: depth + 1 });
  }
  return out;
}
