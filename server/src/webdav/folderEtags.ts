// Folder ETags that change when anything below a folder changes through the tree (what sync clients compare to
// decide whether to look inside). Every change the Vfs announces gives the folders above it a new token, kept as
// an internal dead property (`tree`), so every instance answers the same ETag.
import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from '../lib/logger.js';
import type { DavRepository } from '../repositories/davRepository.js';
import type { VfsChange } from '../vfs/types.js';

/** Changes within this window share one write of tokens (a copy of 10,000 files is not 10,000 writes). */
const FLUSH_AFTER_MS = 50;

/** Every folder above `path` (its parent up to `/`). */
function foldersAbove(path: string): string[] {
  const out: string[] = [];
  let dir = path;
  while (dir !== '/' && dir !== '') {
    dir = dir.slice(0, dir.lastIndexOf('/')) || '/';
    out.push(dir);
  }
  return out;
}

/** The folders whose content a change touched: the ones above it, and the folder it made or moved in. */
export function foldersTouchedBy(change: VfsChange): string[] {
  const touched = new Set(foldersAbove(change.path));
  if (change.type === 'mkdir') touched.add(change.path);
  if (change.toPath) {
    touched.add(change.toPath);
    for (const dir of foldersAbove(change.toPath)) touched.add(dir);
  }
  return [...touched];
}

/** A folder's ETag from its path, its storage time and its tree token (none yet: stable until a change). */
export function folderEtag(path: string, lastModified: Date, token: string | undefined): string {
  const hash = createHash('sha1')
    .update(`${path}\n${lastModified.getTime()}\n${token ?? ''}`)
    .digest('hex');
  return `"d${hash.slice(0, 24)}"`;
}

export class FolderEtags {
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { repo: DavRepository; logger: Logger }) {}

  changed(change: VfsChange): void {
    for (const dir of foldersTouchedBy(change)) this.pending.add(dir);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
  }

  /** Something in `folder` changed on the storage behind the tree's back (the search crawl saw it). */
  contentChanged(folder: string): void {
    this.pending.add(folder);
    for (const dir of foldersAbove(folder)) this.pending.add(dir);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
  }

  /** Writes the tokens of the folders changed so far (resolves once they are stored). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const paths = [...this.pending];
    this.pending.clear();
    if (paths.length > 0) {
      const token = randomBytes(8).toString('hex');
      this.writing = this.writing
        .then(() => this.deps.repo.setFolderTokens(paths, token))
        .catch((error: unknown) => this.deps.logger.error('folder ETags were not stored', error));
    }
    return this.writing;
  }
}
