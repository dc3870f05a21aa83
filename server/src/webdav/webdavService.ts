// WebDAV over the fs tree (spec §1). Every path goes through the Vfs (normalisation, mounts,
// permissions, base paths, listing cache); dead properties and locks live in the database.
import { Permission, isPathWithin, joinVirtualPath, parentVirtualPath, type WebdavLockView } from '@clipnest/contract';
import { AppError } from '../errors.js';
import { FOLDER_TOKEN, type DavRepository } from '../repositories/davRepository.js';
import type { WriteBody } from '../storage/types.js';
import { longestMount } from '../vfs/mountTable.js';
import type { VfsEntry } from '../vfs/types.js';
import type { Vfs } from '../vfs/vfs.js';
import type { ContentRequest, ContentResult } from '../services/shares/serving/fileServingService.js';
import { etagOf, mimetypeOf, type FsService } from '../services/fs/fsService.js';
import type { Principal } from '../auth/principal.js';
import type { SettingsService } from '../services/admin/settingsService.js';
import type { CopyService } from '../services/fs/tasks/copyService.js';
import { StorageSpaceService, type SpaceFigures } from '../services/storageConfigs/storageSpace.js';
import { requireManage, treePrincipal } from './davAuth.js';
import { DEFAULT_LOCK_SECONDS, MAX_LOCK_SECONDS, covers, lockIdOf, type DavLocks, type LockScope } from './davLocks.js';
import { folderEtag, type FolderEtags } from './folderEtags.js';
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

/**
 * Properties the server keeps for itself in dav_properties (never listed, never patchable): `mtime`, a
 * client's X-OC-Mtime on storages that cannot set a file's time (S3), valid while the file keeps its ETag.
 */
export const INTERNAL_NS = 'urn:x-clipnest:webdav-internal';

/** Members of a PROPFIND turned into items (and written out) between two turns of the event loop. */
const PROPFIND_PAGE = 500;

/** Presigned GET links for `302_redirect` mounts last this long. */
const REDIRECT_TTL_SECONDS = 900;

export interface WriteConditions {
  ifLists?: IfList[];
}

function tokensOf(ifLists: IfList[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const list of ifLists ?? []) for (const c of list.conditions) if (c.token && !c.not) out.add(c.token);
  return out;
}

function unquote(etag: string): string {
  return etag.replace(/^W\//, '');
}

export class WebdavService {
  /** The time of a folder when nothing newer is known (no mount at all). */
  private readonly started = new Date();

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
  ) {}

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

  // ---- reading --------------------------------------------------------------------------------------------

  /** `fallback`: the time of an entry the storage gives none (a folder above mounts, a mount point, an S3 prefix). */
  private toResource(entry: VfsEntry, fallback: Date): DavResource {
    return {
      path: entry.path,
      name: entry.name,
      isDir: entry.isDir,
      size: entry.isDir ? 0 : entry.size,
      lastModified: entry.lastModified ? new Date(entry.lastModified) : fallback,
      ...(entry.isDir ? {} : { etag: etagOf(entry), contentType: mimetypeOf(entry.name, entry.contentType) }),
    };
  }

  /**
   * The time of a folder the storage gives none (`/`, a folder above mounts, a mount point, an S3 prefix): the
   * newest update of the caller's mounts holding it or below it, never the epoch (the server's start when no
   * mount is there). A Depth 1 PROPFIND makes such a folder as new as its newest member.
   */
  private async mountTimes(caller: Principal): Promise<(path: string) => Date> {
    const mounts = (await this.deps.vfs.mounts(caller)).filter((m) => m.is_active);
    return (path) => {
      let newest: number | undefined;
      for (const mount of mounts) {
        if (!isPathWithin(path, mount.path) && !isPathWithin(mount.path, path)) continue;
        const at = Date.parse(mount.updated_at);
        if (!Number.isNaN(at) && (newest === undefined || at > newest)) newest = at;
      }
      return newest === undefined ? this.started : new Date(newest);
    };
  }

  /** A folder above a key's base path: it shows only the way down (one folder), or nothing without mounts. */
  private async aboveBase(principal: Principal, path: string): Promise<VfsEntry[] | undefined> {
    if (principal.type !== 'apikey') return undefined;
    const base = principal.basicPath || '/';
    if (path === base || !isPathWithin(base, path)) return undefined;
    if ((await this.deps.vfs.mounts(principal)).length === 0) return [];
    const rest = base.slice(path === '/' ? 1 : path.length + 1);
    const name = rest.split('/')[0] as string;
    return [{ name, path: joinVirtualPath(path, name), isDir: true, size: 0, isMount: true }];
  }

  /** The resource at a path, or undefined when nothing is there. */
  async find(principal: Principal, input: string): Promise<DavResource | undefined> {
    return (await this.locate(principal, input))?.resource;
  }

  /** find(), and whether the time is the resource's own (else the time of its mounts). */
  private async locate(
    principal: Principal,
    input: string,
  ): Promise<{ resource: DavResource; ownTime: boolean } | undefined> {
    const caller = treePrincipal(principal);
    const path = this.deps.vfs.normalise(input);
    if (await this.aboveBase(caller, path)) {
      const lastModified = (await this.mountTimes(caller))(path);
      const name = path.slice(path.lastIndexOf('/') + 1);
      return { resource: { path, name, isDir: true, size: 0, lastModified }, ownTime: false };
    }
    try {
      const entry = await this.deps.vfs.stat(caller, path);
      if (entry.lastModified) return { resource: this.toResource(entry, this.started), ownTime: true };
      return { resource: this.toResource(entry, (await this.mountTimes(caller))(path)), ownTime: false };
    } catch (error) {
      if (error instanceof AppError && error.kind === 'NOT_FOUND') return undefined;
      throw error;
    }
  }

  private async require(principal: Principal, path: string): Promise<DavResource> {
    const found = await this.find(principal, path);
    if (!found) throw AppError.notFound(`${path} does not exist`);
    return found;
  }

  /**
   * RFC 4331 quota of resources: the storage of the mount holding each (storageSpace.ts); `/` and the folders
   * above mounts add up the storages of the mounts below them. Unknown (S3 without a capacity): none. The
   * figures of a storage are asked once per PROPFIND, whatever the number of pages.
   */
  private async quotaOf(caller: Principal): Promise<(resources: DavResource[]) => Promise<DavResource[]>> {
    const mounts = (await this.deps.vfs.mounts(caller)).filter((m) => m.is_active);
    const byConfig = new Map<string, Promise<SpaceFigures | undefined>>();
    const of = (configId: string) => {
      let figures = byConfig.get(configId);
      if (!figures) byConfig.set(configId, (figures = this.deps.space.of(configId)));
      return figures;
    };
    return (resources) =>
      Promise.all(
        resources.map(async (resource) => {
          const holder = longestMount(mounts, resource.path);
          const figures = holder
            ? await of(holder.storage_config_id)
            : StorageSpaceService.combine(
                await Promise.all(
                  mounts.filter((m) => isPathWithin(m.path, resource.path)).map((m) => of(m.storage_config_id)),
                ),
              );
          if (!figures) return resource;
          return { ...resource, quota: { usedBytes: figures.usedBytes, availableBytes: figures.availableBytes } };
        }),
      );
  }

  /**
   * PROPFIND: the resource and (Depth 1) its members, with their dead properties and locks; `quota` when the
   * request names a quota property (they are not part of allprop).
   */
  async propfind(
    principal: Principal,
    input: string,
    depth: '0' | '1',
    options: { quota?: boolean } = {},
  ): Promise<DavPropfindItem[]> {
    const out: DavPropfindItem[] = [];
    for await (const page of (await this.propfindPages(principal, input, depth, options)).pages) out.push(...page);
    return out;
  }

  /**
   * PROPFIND as pages: the resource first, then its members (Depth 1) PROPFIND_PAGE at a
   * time, giving the event loop a turn before each page, so a folder of 100,000 entries never holds up other
   * requests. `total` counts every item the pages will hold. Dead properties are those inside the caller's
   * scope only (a key sees none of the folders above its base path). A folder with no time of its own is as
   * new as its newest member.
   */
  async propfindPages(
    principal: Principal,
    input: string,
    depth: '0' | '1',
    options: { quota?: boolean } = {},
  ): Promise<{ total: number; pages: AsyncGenerator<DavPropfindItem[]> }> {
    const caller = treePrincipal(principal);
    const located = await this.locate(principal, input);
    if (!located) throw AppError.notFound(`${this.deps.vfs.normalise(input)} does not exist`);
    let self = located.resource;
    let count = 0;
    let members: (offset: number, limit: number) => DavResource[] = () => [];
    if (depth === '1' && self.isDir) {
      const timeOf = await this.mountTimes(caller);
      const resourceOf = (e: VfsEntry) => this.toResource(e, e.lastModified ? this.started : timeOf(e.path));
      const virtual = await this.aboveBase(caller, self.path);
      let newest = self.lastModified.getTime();
      if (virtual) {
        count = virtual.length;
        members = (offset, limit) => virtual.slice(offset, offset + limit).map(resourceOf);
        for (const e of virtual) newest = Math.max(newest, e.lastModified ? Date.parse(e.lastModified) : 0);
      } else {
        const folder = await this.deps.vfs.folder(caller, self.path);
        count = folder.folders.length + folder.own.length;
        members = (offset, limit) => this.deps.vfs.page(folder, { offset, limit }).entries.map(resourceOf);
        if (!located.ownTime) {
          for (const e of folder.folders) newest = Math.max(newest, e.lastModified ? Date.parse(e.lastModified) : 0);
          for (const e of folder.own) newest = Math.max(newest, e.lastModified?.getTime() ?? 0);
        }
      }
      if (!located.ownTime && newest > self.lastModified.getTime()) self = { ...self, lastModified: new Date(newest) };
    }
    const withQuota = options.quota ? await this.quotaOf(caller) : undefined;
    const rows =
      depth === '1' && self.isDir
        ? await this.deps.repo.propertiesOfFolder(self.path)
        : await this.deps.repo.properties(self.path);
    const locks = await this.deps.locks.around(self.path, depth === '1');
    const scope = caller.type === 'apikey' ? caller.basicPath || '/' : '/';
    const dead = new Map<string, DavPropfindItem['dead']>();
    const mtimes = new Map<string, { at: string; etag?: string }>();
    const trees = new Map<string, string>();
    for (const row of rows) {
      if (row.ns === INTERNAL_NS) {
        if (row.name === 'mtime') mtimes.set(row.path, JSON.parse(row.value) as { at: string; etag?: string });
        else if (row.name === FOLDER_TOKEN.name) trees.set(row.path, row.value);
        continue;
      }
      if (!isPathWithin(row.path, scope)) continue;
      let list = dead.get(row.path);
      if (!list) dead.set(row.path, (list = []));
      list.push({ ns: row.ns, name: row.name, xml: row.value });
    }
    const item = (resource: DavResource): DavPropfindItem => {
      const mtime = mtimes.size === 0 ? undefined : mtimes.get(resource.path);
      return {
        resource: resource.isDir
          ? { ...resource, etag: folderEtag(resource.path, resource.lastModified, trees.get(resource.path)) }
          : mtime && mtime.etag === resource.etag
            ? { ...resource, lastModified: new Date(mtime.at) }
            : resource,
        dead: dead.get(resource.path) ?? [],
        locks: locks.length === 0 ? [] : locks.filter((l) => covers(l, resource.path)),
      };
    };
    const first = self;
    async function* pages(): AsyncGenerator<DavPropfindItem[]> {
      yield (withQuota ? await withQuota([first]) : [first]).map(item);
      for (let offset = 0; offset < count; offset += PROPFIND_PAGE) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        const page = members(offset, PROPFIND_PAGE);
        yield (withQuota ? await withQuota(page) : page).map(item);
      }
    }
    return { total: count + 1, pages: pages() };
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
    const resource = await this.require(principal, input);
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

  // ---- conditions -------------------------------------------------------------------------------------------

  /** 412 unless one list of the If header holds; 423 unless every lock the write touches had its token sent. */
  private async preconditions(
    principal: Principal,
    path: string,
    conditions: WriteConditions,
    scope: LockScope,
  ): Promise<void> {
    await this.assertIf(principal, path, conditions.ifLists);
    await this.deps.locks.assertCanWrite(principal, path, tokensOf(conditions.ifLists), scope);
  }

  /** 412 unless one list of the If header (when there is one) holds. */
  private async assertIf(principal: Principal, path: string, ifLists: IfList[] | undefined): Promise<void> {
    if (ifLists && ifLists.length > 0 && !(await this.ifHolds(principal, path, ifLists))) {
      throw new AppError('PRECONDITION_FAILED', 'the If header does not match the resource');
    }
  }

  private async ifHolds(principal: Principal, path: string, lists: IfList[]): Promise<boolean> {
    for (const list of lists) {
      const target = list.resource ?? path;
      let resource: DavResource | undefined;
      let locks: DavLock[] = [];
      try {
        resource = await this.find(principal, target);
        locks = await this.deps.locks.covering(this.deps.vfs.normalise(target));
      } catch {
        resource = undefined;
      }
      const holds = list.conditions.every((c) => {
        const match = c.token
          ? locks.some((l) => l.token === c.token)
          : c.etag !== undefined && resource?.etag !== undefined && unquote(resource.etag) === unquote(c.etag);
        return c.not ? !match : match;
      });
      if (holds) return true;
    }
    return false;
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
    return this.require(principal, path);
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
    await this.require(principal, path);
    return this.deps.locks.refresh(principal, path, tokensOf(ifLists), timeoutSeconds);
  }

  async unlock(principal: Principal, input: string, token: string): Promise<void> {
    const path = this.deps.vfs.normalise(input);
    await this.require(principal, path);
    await this.deps.locks.unlock(principal, path, token);
  }
}
