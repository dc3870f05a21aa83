import type { FsEntryView } from '@clipnest/contract';
import { api, isApiError } from '../../lib/api';
import type { ConflictChoice } from './components/ConflictDialog';
import { baseName, joinPath } from './paths';

export type Ask = (
  name: string,
  folder: string,
  remaining: number,
) => Promise<{ choice: ConflictChoice | null; forAll: boolean }>;

/** "a.txt" → "a (2).txt"; "archive.tar.gz" → "archive (2).tar.gz"; ".env" and "README" → ".env (2)", "README (2)". */
export function numberedName(name: string, n: number): string {
  const tar = /\.tar\.[^.]+$/i.exec(name);
  const dot = tar ? tar.index : name.lastIndexOf('.');
  if (dot <= 0) return `${name} (${n})`;
  return `${name.slice(0, dot)} (${n})${name.slice(dot)}`;
}

/** Whether a path exists (GET /fs/get; 404 is "no"). */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await api.get<FsEntryView>('/fs/get', { query: { path } });
    return true;
  } catch (error) {
    if (isApiError(error) && error.status === 404) return false;
    throw error;
  }
}

/**
 * The items of a copy or move into `folder`, with every taken name asked about (`ask`; "for all" answers the
 * rest): replace keeps the target name (listed in `replaced`), keep both picks the first free "name (n)", skip
 * drops the item. null when the user closed the question (nothing is done). A move onto its own place is
 * dropped; a copy onto itself keeps both without asking.
 */
export async function planTransfer(
  sources: readonly string[],
  folder: string,
  mode: 'copy' | 'move',
  ask: Ask,
  exists: (path: string) => Promise<boolean> = pathExists,
): Promise<{ items: { sourcePath: string; targetPath: string }[]; replaced: string[] } | null> {
  const items: { sourcePath: string; targetPath: string }[] = [];
  const replaced: string[] = [];
  const taken = new Set<string>();
  const free = async (name: string) => {
    for (let n = 1; n < 1000; n++) {
      const candidate = joinPath(folder, numberedName(name, n));
      if (!taken.has(candidate) && !(await exists(candidate))) return candidate;
    }
    throw new Error(`no free name for ${name}`);
  };
  const checks = await Promise.all(
    sources.map(async (from) => {
      const target = joinPath(folder, baseName(from));
      return { from, target, self: target === from, clash: target !== from && (await exists(target)) };
    }),
  );
  let remaining = checks.filter((c) => c.clash).length;
  let always: ConflictChoice | null = null;
  for (const { from, target, self, clash } of checks) {
    const name = baseName(from);
    let choice: ConflictChoice | null = null;
    if (self) choice = mode === 'copy' ? 'keep' : 'skip';
    else if (clash) {
      remaining--;
      if (always) choice = always;
      else {
        const answer = await ask(name, folder, remaining);
        if (answer.choice === null) return null;
        choice = answer.choice;
        if (answer.forAll) always = answer.choice;
      }
    }
    if (choice === 'skip') continue;
    const targetPath = choice === 'keep' ? await free(name) : target;
    if (choice === 'replace') replaced.push(target);
    taken.add(targetPath);
    items.push({ sourcePath: from, targetPath });
  }
  return { items, replaced };
}
