// Listing helpers of the local driver: cursors, a folder's change stamp, and the stat of a page of names.
import { statSync, type BigIntStats } from 'node:fs';
import fs from 'node:fs/promises';
import nodePath from 'node:path';
import type { Entry } from '../types.js';
import { entryOf } from './files.js';

export const MAX_LIST = 1000;
/** Names stat'ed synchronously in a row by list(); past the budget (ms) the rest go through the thread pool. */
export const SYNC_STAT_BATCH = 200;
export const SYNC_STAT_BUDGET_MS = 10;
/** How long list() may reuse a folder's names for its next pages (the folder's change stamp must match too). */
export const NAMES_REUSE_MS = 5000;

export function encodeCursor(name: string): string {
  return Buffer.from(name, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): string {
  return Buffer.from(cursor, 'base64url').toString('utf8');
}

/** A folder's change stamp (mtime and ctime in ns, inode), undefined when it cannot be read. */
export async function folderVersion(abs: string): Promise<string | undefined> {
  try {
    const st = await fs.stat(abs, { bigint: true });
    return `${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * The entries of `names` in `abs` (vanished ones and dangling symlinks left out). A stat through the
 * thread pool costs the event loop ~20 µs of promise and hand-off work, a synchronous one ~5 µs on a local
 * disk: names are stat'ed synchronously in small batches (the loop runs between them). A batch that takes
 * long (a slow or network disk) switches the rest to the thread pool, which never blocks the loop.
 */
export async function statNames(abs: string, dir: string, names: string[]): Promise<Entry[]> {
  const out: Entry[] = [];
  const add = (name: string, st: BigIntStats | undefined) => {
    if (st) out.push(entryOf(dir === '' ? name : `${dir}/${name}`, st));
  };
  let i = 0;
  while (i < names.length) {
    const started = performance.now();
    const end = Math.min(names.length, i + SYNC_STAT_BATCH);
    for (; i < end; i++) {
      const name = names[i] as string;
      let st: BigIntStats | undefined;
      try {
        st = statSync(nodePath.join(abs, name), { bigint: true, throwIfNoEntry: false });
      } catch {
        st = undefined; // unreadable: left out, as a vanished one
      }
      add(name, st);
    }
    if (i >= names.length) break;
    if (performance.now() - started > SYNC_STAT_BUDGET_MS) {
      const rest = names.slice(i);
      const stats = await Promise.all(
        rest.map((name) => fs.stat(nodePath.join(abs, name), { bigint: true }).catch(() => undefined)),
      );
      rest.forEach((name, k) => add(name, stats[k]));
      break;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}
