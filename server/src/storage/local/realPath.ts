// Where a path really lands on disk, for confining local storage to its root (symlinks included).
import fs from 'node:fs/promises';
import nodePath from 'node:path';

function missing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * The real path of an absolute path: the realpath of its deepest existing ancestor (every symlink on the
 * way resolved) with the missing rest appended. The rest does not exist yet, so it holds no symlink.
 * Other errors (ELOOP, EACCES) are thrown.
 */
export async function resolveReal(abs: string): Promise<string> {
  const rest: string[] = [];
  let current = nodePath.resolve(abs);
  for (;;) {
    try {
      const real = await fs.realpath(current);
      return rest.length === 0 ? real : nodePath.join(real, ...rest.reverse());
    } catch (err) {
      const parent = nodePath.dirname(current);
      if (!missing(err) || parent === current) throw err;
      rest.push(nodePath.basename(current));
      current = parent;
    }
  }
}

/** true when `inner` is `outer` or below it (both absolute and resolved). */
export function isInsideDir(inner: string, outer: string): boolean {
  if (inner === outer) return true;
  const rel = nodePath.relative(outer, inner);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${nodePath.sep}`) && !nodePath.isAbsolute(rel);
}

/** The realpath of a directory, or null when it does not exist. */
export async function realDirOrNull(abs: string): Promise<string | null> {
  try {
    return await fs.realpath(abs);
  } catch (err) {
    if (missing(err)) return null;
    throw err;
  }
}
