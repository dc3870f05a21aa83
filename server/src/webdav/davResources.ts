// Reading the fs tree over WebDAV: resources with their times and quota, and PROPFIND as pages with the dead
// properties and locks of what it lists.
import { isPathWithin, joinVirtualPath } from '@clipnest/contract';
import { AppError } from '../errors.js';
import { FOLDER_TOKEN, type DavRepository } from '../repositories/davRepository.js';
import { longestMount } from '../vfs/mountTable.js';
import type { VfsEntry } from '../vfs/types.js';
import type { Vfs } from '../vfs/vfs.js';
import { etagOf, mimetypeOf } from '../services/fs/fsService.js';
import type { Principal } from '../auth/principal.js';
import { StorageSpaceService, type SpaceFigures } from '../services/storageConfigs/storageSpace.js';
import { treePrincipal } from './davAuth.js';
import { covers, type DavLocks } from './davLocks.js';
import { folderEtag } from './folderEtags.js';
import type { DavPropfindItem, DavResource } from './davTypes.js';

/**
 * Properties the server keeps for itself in dav_properties (never listed, never patchable): `mtime`, a
 * client's X-OC-Mtime on storages that cannot set a file's time (S3), valid while the file keeps its ETag.
 */
export const INTERNAL_NS = 'urn:x-clipnest:webdav-internal';

/** Members of a PROPFIND turned into items (and written out) between two turns of the event loop. */
const PROPFIND_PAGE = 500;

export class DavResources {
  /** The time of a folder when nothing newer is known (no mount at all). */
  private readonly started = new Date();

  constructor(
    private readonly deps: {
      vfs: Vfs;
      repo: DavRepository;
      locks: Pick<DavLocks, 'around'>;
      space: Pick<StorageSpaceService, 'of'>;
    },
  ) {}

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

  async require(principal: Principal, path: string): Promise<DavResource> {
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
}
