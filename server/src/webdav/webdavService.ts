// WebDAV over the fs tree (spec §1). Every path goes through the Vfs (normalisation, mounts,
// permissions, base paths, listing cache); dead properties and locks live in the database.
import { Permission, parentVirtualPath, type WebdavLockView } from '@clipnest/contract';
import { AppError } from '../errors.js';
import type { DavRepository } from '../repositories/davRepository.js';
import type { WriteBody } from '../storage/types.js';
import { longestMount } from '../vfs/mountTable.js';
import type { VfsEntry } from '../vfs/types.js';
import type { Vfs } from '../vfs/vfs.js';
import type { ContentRequest, ContentResult } from '../services/shares/serving/fileServingService.js';
import { etagOf, type FsService } from '../services/fs/fsService.js';
import type { Principal } from '../auth/principal.js';
import type { SettingsService } from '../services/admin/settingsService.js';
import type { CopyService } from '../services/fs/tasks/copyService.js';
import type { StorageSpaceService } from '../services/storageConfigs/storageSpace.js';
import { requireManage, treePrincipal } from './davAuth.js';
import { DavConditions, tokensOf, type WriteConditions } from './davConditions.js';
import { DEFAULT_LOCK_SECONDS, MAX_LOCK_SECONDS, lockIdOf, type DavLocks, type LockScope } from './davLocks.js';
import { DavResources, INTERNAL_NS } from './davResources.js';
import type { FolderEtags } from './folderEtags.js';
import type { DavLock, DavPropertyChange, DavPropfindItem, DavResource, IfList } from './davTypes.js';

/** Live properties a PROPPATCH may not change. */
const LIVE = new Set([
  'creationdate',
  'displayname',
  'getcontentlanguage',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'lockdiscovery',
  'quota-available-bytes',
  'quota-used-bytes',
  'resourcetype',
  'supportedlock',
]);

export { INTERNAL_NS };
export type { WriteConditions };

/** Presigned GET links for `302_redirect` mounts last this long. */
const REDIRECT_TTL_SECONDS = 900;

export class WebdavService {
  private readonly resources: DavResources;
  private readonly conditions: DavConditions;

  constructor(
    private readonly deps: {
      vfs: Vfs;
      /** Folders are copied and moved as tasks the request waits for (they show in the task list). */
      copies: Pick<CopyService, 'transferTree'>;
      fs: Pick<FsService, 'content'>;
      settings: Pick<SettingsService, 'get'>;
      repo: DavRepository;
      locks: DavLocks;
      space: Pick<StorageSpaceService, 'of'>;
      /** The name of the API key with this id (the admin's lock list), undefined once it is gone. */
      keyName?: (id: string) => Promise<string | undefined>;
      /** Folder ETags that follow changes below them (stored shortly after each change). */
      folderEtags?: Pick<FolderEtags, 'flush'>;
    },
  ) {
    this.resources = new DavResources(deps);
    this.conditions = new DavConditions({ vfs: deps.vfs, locks: deps.locks, find: (p, i) => this.find(p, i) });
  }

  // ---- the admin's view of the locks ----------------------------------------------------------------------

  /** Every lock held now, with who holds it (GET /api/admin/webdav/locks). */
  async listLocks(): Promise<WebdavLockView[]> {
    const rows = await this.deps.locks.list();
    const names = new Map<string, string | undefined>();
    const out: WebdavLockView[] = [];
    for (const row of rows) {
      const keyId = row.principal.startsWith('apikey:') ? row.principal.slice('apikey:'.length) : undefined;
      if (keyId !== undefined && !names.has(keyId)) names.set(keyId, await this.deps.keyName?.(keyId));
      out.push({
        id: lockIdOf(row.token),
        path: row.path,
        depth: row.depth === '0' ? '0' : 'infinity',
        scope: row.scope === 'shared' ? 'shared' : 'exclusive',
        owner: row.owner,
        holder:
          keyId !== undefined
            ? { type: 'apikey', id: keyId, name: names.get(keyId) ?? null }
            : { type: 'admin', id: row.principal, name: null },
        timeout_seconds: row.timeout_seconds,
        created_at: row.created_at,
        expires_at: row.expires_at,
      });
    }
    return out;
  }

  /** The admin breaks a lock (DELETE /api/admin/webdav/locks/:id); 404 when it is not held. */
  breakLock(id: string): Promise<void> {
    return this.deps.locks.breakLock(id);
  }

  // ---- reading (davResources.ts) ------------------------------------------------------------------------

  /** The resource at a path, or undefined when nothing is there. */
  find(principal: Principal, input: string): Promise<DavResource | undefined> {
    return this.resources.find(principal, input);
  }

  /** PROPFIND as one list (davResources.ts). */
  propfind(
    principal: Principal,
    input: string,
    depth: '0' | '1',
    options: { quota?: boolean } = {},
  ): Promise<DavPropfindItem[]> {
    return this.resources.propfind(principal, input, depth, options);
  }

  /** PROPFIND as pages (davResources.ts). */
  propfindPages(
    principal: Principal,
    input: string,
    depth: '0' | '1',
    options: { quota?: boolean } = {},
  ): Promise<{ total: number; pages: AsyncGenerator<DavPropfindItem[]> }> {
    return this.resources.propfindPages(principal, input, depth, options);
  }

  /** What `/dav/` lists for a caller (its members), and why it is empty when it is. */
  async topLevel(
    principal: Principal,
  ): Promise<{ entries: DavResource[]; emptyReason?: 'no_mounts' | 'none_in_base_path' }> {
    const entries = (await this.propfind(principal, '/', '1')).slice(1).map((item) => item.resource);
    if (entries.length > 0) return { entries };
    const active = (await this.deps.vfs.allMounts()).filter((m) => m.is_active);
    return { entries, emptyReason: active.length === 0 ? 'no_mounts' : 'none_in_base_path' };
  }

  /** GET / HEAD: a redirect to the storage (302_redirect mounts that can presign), else the bytes. */
  async content(
    principal: Principal,
    input: string,
    options: { head: boolean; allowRedirect: boolean },
    conditional: ContentRequest['conditional'],
  ): Promise<ContentResult | { kind: 'collection'; resource: DavResource }> {
    const caller = treePrincipal(principal);
    const resource = await this.resources.require(principal, input);
    if (resource.isDir) return { kind: 'collection', resource };
    if (options.allowRedirect && !options.head) {
      const resolved = await this.deps.vfs.resolve(caller, resource.path, Permission.MOUNT_VIEW);
      if (resolved.mount.webdav_policy === '302_redirect') {
        const url = await this.deps.vfs.presign(resolved, 'get', REDIRECT_TTL_SECONDS);
        if (url !== undefined) return { kind: 'redirect', url };
      }
    }
    // The file's own type, as PROPFIND names it; a type that could run script goes as a sandboxed attachment.
    return this.deps.fs.content(
      caller,
      { path: resource.path, mode: 'inline', ownType: true, head: options.head },
      conditional,
    );
  }

  // ---- conditions (davConditions.ts) ----------------------------------------------------------------------

  private preconditions(principal: Principal, path: string, conditions: WriteConditions, scope: LockScope) {
    return this.conditions.preconditions(principal, path, conditions, scope);
  }

  private assertIf(principal: Principal, path: string, ifLists: IfList[] | undefined) {
    return this.conditions.assertIf(principal, path, ifLists);
  }

  // ---- writes ------------------------------------------------------------------------------------------

  private async assertParentFolder(principal: Principal, path: string): Promise<void> {
    const parent = await this.find(principal, parentVirtualPath(path));
    if (!parent || !parent.isDir) throw AppError.conflict(`the parent folder of ${path} does not exist`);
  }

  private assertNotMountPoint(path: string, entry?: VfsEntry): void {
    if (path === '/' || entry?.isMount) {
      throw AppError.forbidden(`${path} is a mount point or a virtual folder: it cannot be changed over WebDAV`);
    }
  }

  private async entry(principal: Principal, path: string): Promise<VfsEntry | undefined> {
    try {
      return await this.deps.vfs.stat(treePrincipal(principal), path);
    } catch (error) {
      if (error instanceof AppError && error.kind === 'NOT_FOUND') return undefined;
      throw error;
    }
  }

  /**
   * PUT: streams the body into the file, in one vfs.write that looks at the target and its parent side by side
   * first; `created` when it did not exist.
   */
  async put(
    principal: Principal,
    input: string,
    body: WriteBody,
    options: { size?: number; contentType?: string; signal?: AbortSignal; mtime?: Date } & WriteConditions,
  ): Promise<{ created: boolean; etag?: string }> {
    requireManage(principal);
    const path = this.deps.vfs.normalise(input);
    const mode = await this.deps.settings.get('webdav_upload_mode');
    let existed = false;
    const entry = await this.deps.vfs.write(treePrincipal(principal), path, body, {
      overwrite: true,
      requireParent: true,
      before: async (existing) => {
        if (existing?.isDir) throw new AppError('METHOD_NOT_ALLOWED', `${path} is a folder`);
        existed = existing !== undefined;
        await this.preconditions(principal, path, options, { membership: !existing });
      },
      ...(options.size !== undefined && mode === 'direct' ? { size: options.size } : {}),
      ...(options.contentType ? { contentType: options.contentType } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.mtime ? { mtime: options.mtime } : {}),
    });
    const at = options.mtime;
    if (at && entry.lastModified !== at.toISOString()) {
      // The storage keeps its own time (S3): the client's is kept beside the file, valid while its ETag holds.
      const value = JSON.stringify({ at: at.toISOString(), etag: entry.etag });
      await this.deps.repo.patchProperties(path, [{ op: 'set', ns: INTERNAL_NS, name: 'mtime', value }]);
    } else if (existed) {
      await this.deps.repo.patchProperties(path, [{ op: 'remove', ns: INTERNAL_NS, name: 'mtime' }]);
    }
    return { created: !existed, etag: etagOf(entry) };
  }

  /** MKCOL. */
  async mkcol(principal: Principal, input: string, conditions: WriteConditions): Promise<void> {
    requireManage(principal);
    const path = this.deps.vfs.normalise(input);
    const existing = await this.entry(principal, path);
    if (existing) throw new AppError('METHOD_NOT_ALLOWED', `${path} already exists`);
    await this.assertParentFolder(principal, path);
    await this.preconditions(principal, path, conditions, { membership: true });
    await this.deps.vfs.mkdir(treePrincipal(principal), path);
  }

  /** DELETE (folders with their content), with the dead properties and locks of the tree. */
  async delete(principal: Principal, input: string, conditions: WriteConditions): Promise<void> {
    requireManage(principal);
    const path = this.deps.vfs.normalise(input);
    const existing = await this.entry(principal, path);
    if (!existing) throw AppError.notFound(`${path} does not exist`);
    this.assertNotMountPoint(path, existing);
    await this.preconditions(principal, path, conditions, { membership: true, tree: true });
    await this.deps.vfs.remove(treePrincipal(principal), [path]);
    await this.deps.repo.removePropertiesTree(path);
    await this.deps.locks.dropTree(path);
  }

  /** COPY / MOVE; `created` when the destination did not exist. */
  async transfer(
    principal: Principal,
    op: 'copy' | 'move',
    fromInput: string,
    toInput: string,
    options: { depth: '0' | 'infinity'; overwrite: boolean } & WriteConditions,
  ): Promise<{ created: boolean }> {
    requireManage(principal);
    const from = this.deps.vfs.normalise(fromInput);
    const to = this.deps.vfs.normalise(toInput, 'destination');
    const caller = treePrincipal(principal);
    if (from === to) throw AppError.forbidden('the destination is the source');
    const source = await this.entry(principal, from);
    if (!source) throw AppError.notFound(`${from} does not exist`);
    if (op === 'move') this.assertNotMountPoint(from, source);
    const target = await this.entry(principal, to);
    this.assertNotMountPoint(to, target);
    // Before anything is deleted: a destination that is the source, holds it (an ancestor:
    // overwriting it would delete the source) or lies inside it (a copy into itself), in the tree or in the
    // storage behind two mounts of one config, is refused with 403 (RFC 4918 9.8.5 / 9.9.4, as Apache mod_dav).
    await this.deps.vfs.assertApart(from, to);
    if (target && !options.overwrite) throw new AppError('PRECONDITION_FAILED', `${to} exists and Overwrite is F`);
    await this.assertParentFolder(principal, to);
    if (op === 'move') await this.preconditions(principal, from, options, { membership: true, tree: true });
    else await this.assertIf(principal, from, options.ifLists);
    await this.deps.locks.assertCanWrite(principal, to, tokensOf(options.ifLists), { membership: true, tree: true });
    if (source.isMount) throw AppError.forbidden(`${from} is a mount point: it cannot be copied or moved`);
    // Overwrite: T replaces the destination (the vfs removes it once the source is checked), F needs none there.
    const overwrite = target ? 'replace' : 'fail';
    try {
      if (
        source.isDir &&
        (op === 'copy' ? options.depth === 'infinity' : !(await this.sameMount(caller, source, to)))
      ) {
        await this.deps.copies.transferTree(caller, op, from, to, { overwrite });
      } else if (op === 'copy') {
        await this.deps.vfs.copy(caller, from, to, { overwrite, depth: options.depth });
      } else {
        await this.deps.vfs.move(caller, from, to, { overwrite });
      }
    } catch (error) {
      // A destination replaced before the copy failed takes its dead properties and locks with it.
      if (target && !(await this.entry(principal, to).catch(() => target))) await this.replaced(to);
      throw error;
    }
    if (target) await this.replaced(to);
    await this.deps.repo.copyPropertiesTree(from, to, op === 'copy' && options.depth === '0');
    if (op === 'move') {
      await this.deps.repo.removePropertiesTree(from);
      await this.deps.locks.dropTree(from);
    }
    return { created: !target };
  }

  /** true when `to` lies in the mount holding `entry` (a move there is the storage's own rename). */
  private async sameMount(caller: Principal, entry: VfsEntry, to: string): Promise<boolean> {
    const active = (await this.deps.vfs.mounts(caller)).filter((m) => m.is_active);
    return entry.mountId !== undefined && longestMount(active, to)?.id === entry.mountId;
  }

  /** The dead properties of a replaced destination go; its own lock stays on the path (Apache does the same). */
  private async replaced(path: string): Promise<void> {
    await this.deps.repo.removePropertiesTree(path);
    await this.deps.locks.replacedAt(path);
  }

  /** 403 unless the caller may write over WebDAV at all (checked before a request body is read). */
  assertMayWrite(principal: Principal): void {
    requireManage(principal);
  }

  /**
   * The ETag a PROPFIND answers for a path right now (tree tokens of changes not yet stored are stored first):
   * Nextcloud-style clients take a new folder's ETag from the MKCOL answer.
   */
  async currentEtag(principal: Principal, path: string): Promise<string | undefined> {
    await this.deps.folderEtags?.flush();
    const { pages } = await this.propfindPages(principal, path, '0');
    for await (const page of pages) return page[0]?.resource.etag;
    return undefined;
  }

  /** Whether the caller may change anything over WebDAV (what ownCloud's permission letters tell a client). */
  mayWrite(principal: Principal): boolean {
    try {
      requireManage(principal);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The resource a PROPPATCH changes, checked before its body is read: the caller may write over WebDAV and the
   * path lies inside its scope (a key's base path: dead properties of the folders above it are not its own,
   * even though it sees those folders as the way down); 404 when nothing is there.
   */
  async proppatchTarget(principal: Principal, input: string): Promise<DavResource> {
    requireManage(principal);
    const path = this.deps.vfs.normalise(input);
    this.deps.vfs.authorize(treePrincipal(principal), path, Permission.MOUNT_UPLOAD);
    return this.resources.require(principal, path);
  }

  /**
   * PROPPATCH: all or nothing. A live property cannot be set or removed (403 for it, 424 for the rest);
   * answers the status of every property named.
   */
  async proppatch(
    principal: Principal,
    input: string,
    changes: DavPropertyChange[],
    conditions: WriteConditions,
  ): Promise<Array<{ ns: string; name: string; status: number }>> {
    const resource = await this.proppatchTarget(principal, input);
    await this.preconditions(principal, resource.path, conditions, {});
    const refused = changes.filter((c) => (c.ns === 'DAV:' && LIVE.has(c.name)) || c.ns === INTERNAL_NS);
    if (refused.length > 0) {
      return changes.map((c) => ({ ns: c.ns, name: c.name, status: refused.includes(c) ? 403 : 424 }));
    }
    await this.deps.repo.patchProperties(
      resource.path,
      changes.map((c) => (c.op === 'set' ? { op: 'set', ns: c.ns, name: c.name, value: c.xml } : c)),
    );
    return changes.map((c) => ({ ns: c.ns, name: c.name, status: 200 }));
  }

  // ---- locks -------------------------------------------------------------------------------------------

  /** A Timeout header's first usable value, bounded. */
  static timeoutOf(header: string | undefined): number {
    for (const part of (header ?? '').split(',').map((p) => p.trim().toLowerCase())) {
      if (part === 'infinite') return MAX_LOCK_SECONDS;
      const match = /^second-(\d+)$/.exec(part);
      if (match) return Math.max(1, Math.min(MAX_LOCK_SECONDS, Number(match[1])));
    }
    return DEFAULT_LOCK_SECONDS;
  }

  /** LOCK with a body: a new lock (an unmapped path becomes an empty file: `created`). */
  async lock(
    principal: Principal,
    input: string,
    request: {
      depth: '0' | 'infinity';
      scope: 'exclusive' | 'shared';
      owner: string;
      timeoutSeconds: number;
    } & WriteConditions,
  ): Promise<{ lock: DavLock; created: boolean }> {
    requireManage(principal);
    const path = this.deps.vfs.normalise(input);
    const existing = await this.entry(principal, path);
    if (existing?.isMount || path === '/') throw AppError.forbidden(`${path} is a mount point: it cannot be locked`);
    if (!existing) await this.assertParentFolder(principal, path);
    await this.assertIf(principal, path, request.ifLists);
    if (!existing)
      await this.deps.locks.assertCanWrite(principal, path, tokensOf(request.ifLists), { membership: true });
    const lock = await this.deps.locks.lock(principal, path, request);
    if (!existing) {
      await this.deps.vfs.write(treePrincipal(principal), path, new Blob([]).stream(), { size: 0, overwrite: false });
    }
    return { lock, created: !existing };
  }

  /** LOCK without a body: refreshes the lock named in the If header. */
  async refreshLock(principal: Principal, input: string, ifLists: IfList[], timeoutSeconds: number): Promise<DavLock> {
    const path = this.deps.vfs.normalise(input);
    await this.resources.require(principal, path);
    return this.deps.locks.refresh(principal, path, tokensOf(ifLists), timeoutSeconds);
  }

  async unlock(principal: Principal, input: string, token: string): Promise<void> {
    const path = this.deps.vfs.normalise(input);
    await this.resources.require(principal, path);
    await this.deps.locks.unlock(principal, path, token);
  }
}
