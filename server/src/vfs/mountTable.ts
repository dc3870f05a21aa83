// Pure helpers over the list of active mounts: longest-prefix resolution and the folders mounts add to
// listings. Nested mounts are allowed: `/a/b` wins over `/a` for every path at or below `/a/b`, and shows as
// a folder `b` in `/a`'s listing.
import { isPathWithin } from '@clipnest/contract';
import type { MountsTable } from '../db/schema.js';
import { normalizePath } from '../storage/paths.js';
import type { MountRecord, VfsEntry } from './types.js';

/** A `mounts` row (0/1 flags) as the tree works with it. */
export function toMountRecord(row: MountsTable): MountRecord {
  return {
    id: row.id,
    name: row.name,
    path: row.path,
    storage_type: row.storage_type,
    storage_config_id: row.storage_config_id,
    remark: row.remark,
    sort_order: Number(row.sort_order),
    cache_ttl: Number(row.cache_ttl),
    is_active: Number(row.is_active) === 1,
    web_proxy: Number(row.web_proxy) === 1,
    enable_sign: Number(row.enable_sign) === 1,
    sign_expires: row.sign_expires === null ? null : Number(row.sign_expires),
    webdav_policy: row.webdav_policy === 'native_proxy' ? 'native_proxy' : '302_redirect',
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The mount holding `path` (longest mount path at or above it), if any. */
export function longestMount(mounts: readonly MountRecord[], path: string): MountRecord | undefined {
  let best: MountRecord | undefined;
  for (const mount of mounts) {
    if (isPathWithin(path, mount.path) && (!best || mount.path.length > best.path.length)) best = mount;
  }
  return best;
}

/** Driver path of `path` inside `mount` ('' for the mount's root). */
export function driverPathOf(mount: MountRecord, path: string): string {
  return path === mount.path ? '' : path.slice(mount.path.length + 1);
}

/**
 * Folders that mounts below `dir` add to its listing: for a mount `/a/b/c`, listing `/a` shows `b`
 * (a mount itself when `/a/b` is one, else a folder leading to one). Sorted by the mounts' sort order, then name.
 */
export function mountFolders(mounts: readonly MountRecord[], dir: string): VfsEntry[] {
  const byName = new Map<string, { entry: VfsEntry; order: number }>();
  const prefix = dir === '/' ? '/' : `${dir}/`;
  for (const mount of mounts) {
    if (mount.path === dir || !mount.path.startsWith(prefix)) continue;
    const name = mount.path.slice(prefix.length).split('/')[0] ?? '';
    const path = prefix + name;
    const exact = path === mount.path;
    const known = byName.get(name);
    if (known && !exact) continue;
    byName.set(name, {
      entry: {
        name,
        path,
        isDir: true,
        size: 0,
        isMount: true,
        ...(exact ? { mountId: mount.id, lastModified: mount.updated_at, storageType: mount.storage_type } : {}),
      },
      order: exact ? mount.sort_order : (known?.order ?? mount.sort_order),
    });
  }
  return [...byName.values()]
    .sort((a, b) => a.order - b.order || (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0))
    .map((v) => v.entry);
}

/** true when some mount lies strictly below `dir` (so `dir` exists as a folder of the tree). */
export function hasMountBelow(mounts: readonly MountRecord[], dir: string): boolean {
  return mounts.some((m) => m.path !== dir && isPathWithin(m.path, dir));
}

/**
 * How two paths relate where their bytes live: 'same' (one object), 'inside' (`a` lies below `b`), 'contains'
 * (`b` lies below `a`), or undefined. Two mounts of one storage config are one tree: `/m1/x` and `/m2/x` name
 * the same object when both mounts serve that config.
 */
export function relationOf(
  mounts: readonly MountRecord[],
  a: string,
  b: string,
): 'same' | 'inside' | 'contains' | undefined {
  if (a === b) return 'same';
  if (isPathWithin(a, b)) return 'inside';
  if (isPathWithin(b, a)) return 'contains';
  const ma = longestMount(mounts, a);
  const mb = longestMount(mounts, b);
  if (!ma || !mb || ma.id === mb.id || ma.storage_config_id !== mb.storage_config_id) return undefined;
  let da: string;
  let db: string;
  try {
    da = normalizePath(driverPathOf(ma, a));
    db = normalizePath(driverPathOf(mb, b));
  } catch {
    return undefined;
  }
  const within = (x: string, y: string) => y === '' || x === y || x.startsWith(`${y}/`);
  if (da === db) return 'same';
  if (within(da, db)) return 'inside';
  if (within(db, da)) return 'contains';
  return undefined;
}
