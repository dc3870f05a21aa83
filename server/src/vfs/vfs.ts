// The fs tree (docs/storage.md, "The fs tree"): one place for path normalisation, mount resolution (longest prefix),
// permission bits, a key's basic_path confinement, the listing cache and its invalidation. Services (fs API,
// copy tasks, zip, search, share creation, WebDAV) call it and never a driver of a mount directly.
import {
  Permission,
  hasPermission,
  isPathWithin,
  parentVirtualPath,
  parseVirtualPath,
  permissionNames,
} from '@clipnest/contract';
import { AppError } from '../errors.js';
import type { Principal } from '../auth/principal.js';
import { storageToAppError } from './errors.js';
import { normalizePath } from '../storage/paths.js';
import {
  isStorageError,
  type Entry,
  type MultipartCapability,
  type PresignOptions,
  type ReadOptions,
  type ReadResult,
  type WriteBody,
} from '../storage/types.js';
import { VfsCapabilities } from './capabilities.js';
import type { VfsDeps, WriteLimit } from './deps.js';
import { VfsCopier, type VfsCopyOptions, type VfsCopyResult } from './copy.js';
import { driverOf, withDriver } from './drivers.js';
import { DriverListing } from './driverListing.js';
import { VfsEvents } from './events.js';
import { ListingCache } from './listingCache.js';
import { pageOfFolder, toVfsEntry } from './listingPage.js';
import { assertParentFolder, assertParentsAreFolders } from './parents.js';
import { mkdirAt, moveWithinMount, removeAll, writeAt } from './storageWrites.js';
import { driverPathOf, hasMountBelow, longestMount, mountFolders, relationOf } from './mountTable.js';
import { assertRealInScope, visibleEntries } from './scope.js';
import type {
  MountRecord,
  Resolved,
  VfsChange,
  VfsEntry,
  VfsFolder,
  VfsListedListener,
  VfsListener,
  VfsListing,
  VfsListOptions,
  VfsWriteOptions,
} from './types.js';

export type { VfsDeps, WriteLimit } from './deps.js';

function permissionLabel(bit: number): string {
  return (permissionNames(bit)[0] ?? String(bit)).toLowerCase();
}

export class Vfs {
  private readonly events = new VfsEvents();
  readonly cache: ListingCache;
  private readonly driverListing: DriverListing;
  private mountTable?: { mounts: MountRecord[]; loadedAt: number };
  private loading?: Promise<MountRecord[]>;

  constructor(private readonly deps: VfsDeps) {
    this.cache = new ListingCache(deps.now);
    this.driverListing = new DriverListing(this.cache, deps.shareObjects);
    // The listing cache listens to the tree's own changes: every write drops what it made stale.
    this.onChange((change) => {
      this.dropCached(change.mountId, change.path);
      if (change.toPath !== undefined) this.dropCachedAt(change.toPath);
    });
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  // ---- paths and mounts -------------------------------------------------------------------------------

  /**
   * The one entry point for a path received from a client: `/a/b` form, or 400 naming `field` when it holds
   * `..`, encoded dots / slashes / NUL, backslashes, control characters or passes 4,096 bytes.
   */
  normalise(input: unknown, field = 'path'): string {
    if (input === undefined || input === null || input === '') {
      throw AppError.validation(`${field} is required`, [{ path: field, message: 'required' }]);
    }
    const parsed = parseVirtualPath(input);
    if ('problem' in parsed) {
      const message = `invalid ${field}: ${parsed.problem}`;
      throw AppError.validation(message, [{ path: field, message: parsed.problem }]);
    }
    return parsed.path;
  }

  /** Every mount, cached for a few seconds. */
  async allMounts(): Promise<MountRecord[]> {
    const ttl = this.deps.mountsTtlMs ?? 5000;
    if (this.mountTable && this.now() - this.mountTable.loadedAt < ttl) return this.mountTable.mounts;
    this.loading ??= this.deps
      .loadMounts()
      .then((mounts) => {
        this.mountTable = { mounts, loadedAt: this.now() };
        return mounts;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  private async activeMounts(): Promise<MountRecord[]> {
    return (await this.allMounts()).filter((m) => m.is_active);
  }

  /**
   * Call after a mount was created, edited or deleted: the next request reloads the table. `remote`: the change
   * was made by another instance (it is not announced again).
   */
  mountsChanged(mountId?: string, remote = false): void {
    this.mountTable = undefined;
    this.cache.clear(mountId);
    if (!remote) this.deps.onMountsChanged?.(mountId);
  }

  /** Another instance wrote through its tree: drop what it made stale here (no listener is told). */
  remoteChange(change: Pick<VfsChange, 'mountId' | 'path' | 'toPath'>): void {
    this.dropCached(change.mountId, change.path);
    if (change.toPath !== undefined) this.dropCachedAt(change.toPath);
  }

  async mountById(id: string): Promise<MountRecord | undefined> {
    return (await this.allMounts()).find((m) => m.id === id);
  }

  /**
   * The mounts a caller may see: all of them for the admin; for a key with any mount permission the
   * active mounts its basic_path reaches (mount inside the base path, or the base path inside the mount).
   */
  async mounts(principal: Principal): Promise<MountRecord[]> {
    const all = await this.allMounts();
    if (principal.type === 'admin') return all;
    const base = principal.basicPath || '/';
    return all.filter((m) => m.is_active && (isPathWithin(m.path, base) || isPathWithin(base, m.path)));
  }

  // ---- access ------------------------------------------------------------------------------------------

  /** 403 unless the caller holds `needed` and `path` lies at or under its basic_path. */
  authorize(principal: Principal, path: string, needed: number): void {
    if (principal.type === 'admin') return;
    if (!hasPermission(principal.permissions, needed)) {
      throw AppError.forbidden(`this API key lacks the ${permissionLabel(needed)} permission`);
    }
    if (!isPathWithin(path, principal.basicPath || '/')) {
      throw AppError.forbidden(`no permission for this path: ${path} is outside ${principal.basicPath}`);
    }
  }

  /** Normalises, checks access and resolves a path to the storage holding it (404 when no mount does). */
  async resolve(principal: Principal, virtualPath: string, needed: number): Promise<Resolved> {
    const path = this.normalise(virtualPath);
    this.authorize(principal, path, needed);
    return this.resolveAuthorized(path, principal);
  }

  private async resolveAuthorized(path: string, principal: Principal): Promise<Resolved> {
    const mounts = await this.activeMounts();
    const mount = longestMount(mounts, path);
    if (!mount) {
      if (path === '/' || hasMountBelow(mounts, path)) {
        throw AppError.mountBoundary(`${path} is a virtual folder above mount points: it holds no files`);
      }
      throw AppError.notFound(`no mount holds ${path}`);
    }
    let driverPath: string;
    try {
      driverPath = normalizePath(driverPathOf(mount, path));
    } catch (error) {
      throw storageToAppError(error);
    }
    const driver = await this.deps.driverFor(mount.storage_config_id);
    if (driverPath !== '' && this.deps.shareObjects) {
      const shares = await this.deps.shareObjects.at(mount.storage_config_id, [driverPath]);
      if (shares.has(driverPath)) throw AppError.notFound(`${path} does not exist`);
    }
    const resolved = withDriver({ path, mount, driverPath }, driver);
    await assertRealInScope(principal, resolved);
    return resolved;
  }

  /**
   * Refuses a folder operation (move, copy, delete) over a folder holding a file share's own object: the
   * share would break, or its object would land where the mount reads it.
   */
  async assertNoShareObjects(resolved: Resolved, field = 'path'): Promise<void> {
    if (!this.deps.shareObjects) return;
    if (await this.deps.shareObjects.below(resolved.mount.storage_config_id, resolved.driverPath)) {
      throw new AppError('CONFLICT', `${field}: ${resolved.path} holds objects of file shares; move them first`, {
        data: { fields: [{ path: field, message: 'holds objects of file shares' }] },
      });
    }
  }

  /**
   * resolve() for an operation that changes a path: the mount's root itself cannot be the target (unless
   * `allowMountRoot`: a folder copied into a mount's root merges into it).
   */
  private async resolveInside(
    principal: Principal,
    input: string,
    needed: number,
    field = 'path',
    allowMountRoot = false,
  ): Promise<Resolved> {
    const path = this.normalise(input, field);
    this.authorize(principal, path, needed);
    const mounts = await this.activeMounts();
    if (
      (!allowMountRoot && mounts.some((m) => m.path === path)) ||
      path === '/' ||
      (!longestMount(mounts, path) && hasMountBelow(mounts, path))
    ) {
      throw AppError.mountBoundary(`${field} ${path} is a mount point: edit or delete the mount instead`, [
        { path: field, message: 'is a mount point' },
      ]);
    }
    return this.resolveAuthorized(path, principal);
  }

  /**
   * false when a folder is reached through a symbolic link: what is listed there is not taught to the search
   * index under the link's path (a key searching its base path would find the names of the link's target).
   */
  private async reachedDirectly(resolved: Resolved): Promise<boolean> {
    const driver = driverOf(resolved);
    if (!driver.realPath || !this.events.hasListedListeners) return true;
    try {
      return (await driver.realPath(resolved.driverPath)) === resolved.driverPath;
    } catch {
      return false;
    }
  }

  /** The write guard (WebDAV locks), unless the caller checked the locks itself. */
  private async guardWrite(principal: Principal, path: string, scope: { membership?: boolean; tree?: boolean }) {
    if (this.deps.writeGuard && principal.locksChecked !== true) await this.deps.writeGuard(path, scope);
  }

  /**
   * How two paths (already authorised by the caller) relate where their bytes live: 'same' (one object),
   * 'inside' (`a` lies below `b`), 'contains' (`b` lies below `a`), or undefined. Two mounts of one storage
   * config are one tree: `/m1/x` and `/m2/x` name the same object when both mounts serve that config.
   */
  async relation(a: string, b: string): Promise<'same' | 'inside' | 'contains' | undefined> {
    return relationOf(await this.activeMounts(), a, b);
  }

  // ---- reads -------------------------------------------------------------------------------------------

  /**
   * A folder's entries: the storage's entries plus the mount points below it (a nested mount appears as a
   * folder; it hides a storage folder of the same name). Virtual folders (`/`, parents of mount paths) list
   * only mount points. Paged by `cursor` (or `offset`) and `limit`.
   */
  async list(principal: Principal, input: string, options: VfsListOptions = {}): Promise<VfsListing> {
    return this.page(await this.folder(principal, input, options.refresh === true), options);
  }

  /**
   * The first half of list(): access checked, the folder's entries read (from the listing cache unless
   * `refresh`), nothing turned into VfsEntries yet. `source` is the same array for as long as the cache keeps
   * the folder, so a caller may reuse what it built from an earlier answer (FsService keeps the serialised page).
   */
  async folder(principal: Principal, input: string, refresh = false): Promise<VfsFolder> {
    const path = this.normalise(input);
    this.authorize(principal, path, Permission.MOUNT_VIEW);
    const mounts = await this.activeMounts();
    const folders = mountFolders(mounts, path);
    const mount = longestMount(mounts, path);
    // Storage entries stay raw until paged: only the answered page is turned into VfsEntries.
    let own: readonly Entry[] = [];
    let source: readonly Entry[] | undefined;
    let cached = false;
    if (mount) {
      const resolved = await this.resolveAuthorized(path, principal);
      try {
        const listed = await this.driverListing.entries(resolved, refresh);
        cached = listed.cached;
        source = listed.entries;
        const shadowed = new Set(folders.map((f) => f.name));
        own = shadowed.size ? listed.entries.filter((e) => !shadowed.has(e.name)) : listed.entries;
        const visible = visibleEntries(principal, resolved.mount, own);
        // What this key sees differs from the folder (links left out): no serialised page is shared for it.
        if (visible !== own) source = undefined;
        if (!cached && (await this.reachedDirectly(resolved))) {
          this.events.emitListed({ principal, mount: resolved.mount, path, entries: own });
        }
        own = visible;
      } catch (error) {
        // A folder that only exists because a mount lies below it (`/a/b` of a mount `/a/b/c`).
        if (!(isStorageError(error, 'not_found') && folders.length > 0)) throw storageToAppError(error, 'folder');
      }
    } else if (path !== '/' && folders.length === 0) {
      throw AppError.notFound(`no mount holds ${path}`);
    }
    return { path, ...(mount ? { mount } : {}), folders, own, ...(source ? { source } : {}), cached };
  }

  /** The second half of list(): one page of a folder, as VfsEntries. */
  page(folder: VfsFolder, options: Pick<VfsListOptions, 'cursor' | 'offset' | 'limit'> = {}): VfsListing {
    return pageOfFolder(folder, options);
  }

  /** One file or folder (a mount point or a virtual folder answers as a folder). */
  async stat(principal: Principal, input: string, needed: number = Permission.MOUNT_VIEW): Promise<VfsEntry> {
    const path = this.normalise(input);
    this.authorize(principal, path, needed);
    const mounts = await this.activeMounts();
    const mount = longestMount(mounts, path);
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (!mount || mount.path === path) {
      if (mount || path === '/' || hasMountBelow(mounts, path)) {
        return {
          name,
          path,
          isDir: true,
          size: 0,
          isMount: true,
          ...(mount ? { mountId: mount.id, storageType: mount.storage_type } : {}),
        };
      }
      throw AppError.notFound(`no mount holds ${path}`);
    }
    const resolved = await this.resolveAuthorized(path, principal);
    try {
      return toVfsEntry(mount, parentVirtualPath(path), await driverOf(resolved).stat(resolved.driverPath));
    } catch (error) {
      if (isStorageError(error, 'not_found') && hasMountBelow(mounts, path)) {
        return { name, path, isDir: true, size: 0, isMount: true };
      }
      throw storageToAppError(error, 'file');
    }
  }

  /** Opens a file for reading (MOUNT_VIEW). */
  async read(
    principal: Principal,
    input: string,
    options: ReadOptions = {},
  ): Promise<{ resolved: Resolved; result: ReadResult }> {
    const resolved = await this.resolveInside(principal, input, Permission.MOUNT_VIEW);
    try {
      return { resolved, result: await driverOf(resolved).read(resolved.driverPath, options) };
    } catch (error) {
      throw storageToAppError(error, 'file');
    }
  }

  // ---- writes ------------------------------------------------------------------------------------------

  /**
   * Resolves the target of a write that bypasses `write()` (a presigned PUT, a multipart upload, a copy):
   * checks the permission bit (MOUNT_UPLOAD, or MOUNT_COPY for a copy's target), the base path, that it is
   * not a mount point (unless `allowMountRoot`, for a folder merged into a mount's root) and that no file
   * sits where a parent folder must be. Call `written()` once the bytes are in the storage.
   */
  async resolveWrite(
    principal: Principal,
    input: string,
    field = 'path',
    options: { needed?: number; allowMountRoot?: boolean } = {},
  ): Promise<Resolved> {
    const needed = options.needed ?? Permission.MOUNT_UPLOAD;
    const resolved = await this.resolveInside(principal, input, needed, field, options.allowMountRoot === true);
    await this.guardWrite(principal, resolved.path, { membership: true });
    await assertParentsAreFolders(resolved);
    return resolved;
  }

  /**
   * The write limit of a resolved target: 413 now when `size` (known before the bytes) is over it; else the
   * most bytes the write may stream (undefined: no limit), with the 413 for a stream that passes it.
   */
  async checkWrite(resolved: Resolved, size?: number): Promise<WriteLimit | undefined> {
    const limit = await this.deps.writeLimit?.(resolved);
    if (!limit || !Number.isFinite(limit.maxBytes)) return undefined;
    if (size !== undefined && size > limit.maxBytes) throw limit.tooLarge(size, false);
    return limit;
  }

  /** Announces a file written to a resolved path (listing cache, search index); answers its entry. */
  written(resolved: Resolved, entry: Entry): VfsEntry {
    const out = toVfsEntry(resolved.mount, parentVirtualPath(resolved.path), entry);
    this.emit({ type: 'write', mountId: resolved.mount.id, path: resolved.path, entry: out });
    return out;
  }

  /**
   * Streams a file into the tree (MOUNT_UPLOAD). With `requireParent` the parent folder must exist (409; none is
   * made) and `before` sees what is at the path first (throw to refuse), both from one look at the storage
   * taken side by side; `mtime` is set on the written file where the storage can: the answer's `lastModified`
   * is `mtime` then (seconds), else the storage's own time.
   */
  async write(
    principal: Principal,
    input: string,
    body: WriteBody,
    options: VfsWriteOptions = {},
    field = 'path',
  ): Promise<VfsEntry> {
    const { requireParent, before, mtime, ...driverOptions } = options;
    const resolved =
      requireParent || before
        ? await this.resolveWriteAfterLook(principal, input, field, { requireParent: requireParent === true, before })
        : await this.resolveWrite(principal, input, field);
    const limit = await this.checkWrite(resolved, driverOptions.size);
    const maxBytes =
      limit === undefined
        ? driverOptions.maxBytes
        : Math.min(limit.maxBytes, driverOptions.maxBytes ?? Number.POSITIVE_INFINITY);
    const entry = await writeAt(
      resolved,
      body,
      { ...driverOptions, ...(maxBytes !== undefined ? { maxBytes } : {}) },
      limit,
    );
    if (mtime) {
      const set = await this.capabilities.setModified(resolved, mtime);
      if (set) return set;
    }
    return this.written(resolved, entry);
  }

  /**
   * resolveWrite() for a write that must see the target and its parent first: both are looked at side by
   * side (one storage round trip of waiting), then `before` decides.
   */
  private async resolveWriteAfterLook(
    principal: Principal,
    input: string,
    field: string,
    look: { requireParent: boolean; before: VfsWriteOptions['before'] },
  ): Promise<Resolved> {
    const resolved = await this.resolveInside(principal, input, Permission.MOUNT_UPLOAD, field);
    const [existing] = await Promise.all([
      this.capabilities.stored(resolved),
      look.requireParent ? assertParentFolder(resolved) : assertParentsAreFolders(resolved),
    ]);
    await look.before?.(existing ? toVfsEntry(resolved.mount, parentVirtualPath(resolved.path), existing) : undefined);
    await this.guardWrite(principal, resolved.path, { membership: !existing });
    return resolved;
  }

  /** Creates a folder and its parents (MOUNT_UPLOAD); an existing folder is fine. */
  async mkdir(principal: Principal, input: string): Promise<VfsEntry> {
    const resolved = await this.resolveInside(principal, input, Permission.MOUNT_UPLOAD);
    await this.guardWrite(principal, resolved.path, { membership: true });
    await assertParentsAreFolders(resolved);
    return this.mkdirAt(resolved);
  }

  /** Creates a folder at a path resolved for a write (resolveWrite) and announces it; a mount's root is there. */
  mkdirAt(resolved: Resolved): Promise<VfsEntry> {
    return mkdirAt(resolved, (change) => this.emit(change));
  }

  /**
   * Removes files and folders (folders with their content; MOUNT_DELETE). Every path is checked (access,
   * existence) before anything is removed, so a bad path in the batch changes nothing.
   */
  async remove(principal: Principal, inputs: readonly string[]): Promise<string[]> {
    const targets: Resolved[] = [];
    for (const [i, input] of inputs.entries()) {
      const resolved = await this.resolveInside(principal, input, Permission.MOUNT_DELETE, `paths.${i}`);
      try {
        await driverOf(resolved).stat(resolved.driverPath);
      } catch (error) {
        throw storageToAppError(error, `path ${resolved.path}`);
      }
      await this.guardWrite(principal, resolved.path, { membership: true, tree: true });
      await this.assertNoShareObjects(resolved, `paths.${i}`);
      targets.push(resolved);
    }
    return removeAll(targets, (change) => this.emit(change));
  }

  /** Renames or moves a file or folder within one mount (MOUNT_RENAME); an existing target is a 409. */
  async rename(principal: Principal, fromInput: string, toInput: string): Promise<VfsEntry> {
    const from = await this.resolveInside(principal, fromInput, Permission.MOUNT_RENAME, 'oldPath');
    const to = await this.resolveInside(principal, toInput, Permission.MOUNT_RENAME, 'newPath');
    if (from.mount.id !== to.mount.id) {
      throw AppError.validation(
        `newPath ${to.path} is in another mount's scope (${to.mount.path}, not ${from.mount.path}): ` +
          'rename stays within one mount; copy across mounts instead',
        [{ path: 'newPath', message: 'in another mount' }],
      );
    }
    if (from.path === to.path) return this.stat(principal, from.path, Permission.MOUNT_RENAME);
    await this.guardWrite(principal, from.path, { membership: true, tree: true });
    await this.guardWrite(principal, to.path, { membership: true, tree: true });
    await this.assertNoShareObjects(from, 'oldPath');
    await assertParentsAreFolders(to);
    if (isPathWithin(to.path, from.path)) {
      throw AppError.validation(`cannot move ${from.path} into itself (${to.path})`, [
        { path: 'newPath', message: 'inside oldPath' },
      ]);
    }
    await moveWithinMount(from, to, (change) => this.emit(change));
    return this.stat(principal, to.path, Permission.MOUNT_RENAME);
  }

  // ---- copies and capabilities (copy.ts, capabilities.ts): the only door to what a storage can do ----------

  private readonly copier = new VfsCopier(this);
  private readonly capabilities = new VfsCapabilities(this);

  /** Copies a file or folder, by the storage itself when both ends are one storage config, else streamed. */
  copy(principal: Principal, from: string, to: string, options?: VfsCopyOptions): Promise<VfsCopyResult> {
    return this.copier.copy(principal, from, to, options);
  }

  /** Moves a file or folder (the storage's own move within a mount, else a copy and a removal). */
  move(principal: Principal, from: string, to: string, options?: { overwrite?: 'fail' | 'replace' }): Promise<void> {
    return this.copier.move(principal, from, to, options);
  }

  /** 403 when a copy or move from `from` to `to` would land on, in or above its source. */
  assertApart(from: string, to: string): Promise<void> {
    return this.copier.assertApart(from, to);
  }

  canPresign(resolved: Resolved): boolean {
    return this.capabilities.canPresign(resolved);
  }

  /** A presigned GET / PUT URL, or undefined when the storage cannot presign; throws its StorageError. */
  presign(resolved: Resolved, op: 'get' | 'put', ttl: number, options?: PresignOptions): Promise<string | undefined> {
    return this.capabilities.presign(resolved, op, ttl, options);
  }

  multipart(resolved: Resolved): MultipartCapability | undefined {
    return this.capabilities.multipart(resolved);
  }

  /** Sets a file's time where the storage can (answers the announced entry), else undefined. */
  setModified(resolved: Resolved, at: Date): Promise<VfsEntry | undefined> {
    return this.capabilities.setModified(resolved, at);
  }

  /** The entry stored at a resolved path (an upload made around the server), or undefined. */
  stored(resolved: Resolved): Promise<Entry | undefined> {
    return this.capabilities.stored(resolved);
  }

  /** Removes a file an upload left that is not kept (errors ignored) and announces the removal. */
  discard(resolved: Resolved): Promise<void> {
    return this.capabilities.discard(resolved);
  }

  // ---- changes -----------------------------------------------------------------------------------------

  onChange(listener: VfsListener): () => void {
    return this.events.onChange(listener);
  }

  /** Tells every listener about a write made through the tree (also for writes made by tasks, e.g. copies). */
  emit(change: VfsChange): void {
    this.events.emit(change);
  }

  /** Listens to folders read from their storage (a user's listing, a walk): what the search index learns from. */
  onListed(listener: VfsListedListener): () => void {
    return this.events.onListed(listener);
  }

  private dropCached(mountId: string, virtualPath: string): void {
    const mount = this.mountTable?.mounts.find((m) => m.id === mountId);
    if (!mount) {
      this.cache.clear(mountId);
      return;
    }
    this.cache.invalidate(mountId, isPathWithin(virtualPath, mount.path) ? driverPathOf(mount, virtualPath) : '');
  }

  private dropCachedAt(virtualPath: string): void {
    const mount = this.mountTable && longestMount(this.mountTable.mounts, virtualPath);
    if (mount) this.cache.invalidate(mount.id, driverPathOf(mount, virtualPath));
    else this.cache.clear();
  }
}
