// A key's base path (basic_path) applied to where paths really land: symbolic links inside one storage are
// followed before the base path is checked, and listed links leading outside it are left out.
import { isPathWithin, joinVirtualPath } from '@clipnest/contract';
import { AppError } from '../errors.js';
import type { Principal } from '../auth/principal.js';
import { storageToAppError } from './errors.js';
import type { Entry } from '../storage/types.js';
import { driverOf } from './drivers.js';
import type { MountRecord, Resolved } from './types.js';

/** The base path a key is confined to, or undefined when nothing needs checking (the admin, a key at `/`). */
export function confinedTo(principal: Principal): string | undefined {
  if (principal.type === 'admin') return undefined;
  const base = principal.basicPath || '/';
  return base === '/' ? undefined : base;
}

/** The virtual path of a driver path of a mount. */
function virtualOf(mount: MountRecord, driverPath: string): string {
  return driverPath === '' ? mount.path : joinVirtualPath(mount.path, driverPath);
}

/**
 * A key's base path is checked on where a path really lands, not only on how it is spelled: a symbolic
 * link inside one storage (`team/lnk -> ../secret`) must not take a key based at `/local/team` to
 * `/local/secret`. 403 when the real location is outside the base path (drivers without links skip this).
 */
export async function assertRealInScope(principal: Principal, resolved: Resolved): Promise<void> {
  const base = confinedTo(principal);
  const driver = driverOf(resolved);
  if (base === undefined || !driver.realPath) return;
  let real: string;
  try {
    real = await driver.realPath(resolved.driverPath);
  } catch (error) {
    throw storageToAppError(error);
  }
  if (real === resolved.driverPath) return;
  if (!isPathWithin(virtualOf(resolved.mount, real), base)) {
    throw AppError.forbidden(`no permission for this path: ${resolved.path} is a link leading outside ${base}`);
  }
}

/** Listed entries a key may see: links whose target is outside its base path are left out. */
export function visibleEntries(principal: Principal, mount: MountRecord, entries: readonly Entry[]): readonly Entry[] {
  const base = confinedTo(principal);
  if (base === undefined) return entries;
  let out: Entry[] | undefined;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const hidden = e.linkTarget !== undefined && !isPathWithin(virtualOf(mount, e.linkTarget), base);
    if (hidden && !out) out = entries.slice(0, i);
    else if (!hidden && out) out.push(e);
  }
  return out ?? entries;
}
