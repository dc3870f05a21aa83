// GET /api/fs/search answers from a name index (fs_index), never by walking storage per query. The index is
// filled three ways: every write the app makes through the tree (Vfs.onChange: upload, mkdir, copy, rename,
// delete) at once; every folder read from its storage (Vfs.onListed: a user's /api/fs/list, a walk, the
// crawl), at most once a minute per folder; and a bounded background crawl per mount (a mount never crawled
// is crawled within a tick, then again every `crawlIntervalMs`), capped in entries and time per run.
// Changes made to a storage behind the app's back show up when their folder is next listed from the
// storage, or after the next crawl of that mount.
import {
  Permission,
  isPathWithin,
  joinVirtualPath,
  type SearchHit,
  type SearchQuery,
  type SearchResult,
} from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { Logger } from '../../../lib/logger.js';
import type { FsIndexRepository, FsIndexRow, IndexScope } from '../../../repositories/fsIndexRepository.js';
import { indexId } from '../../../repositories/fsIndexRepository.js';
import type { Vfs } from '../../../vfs/vfs.js';
import type { MountRecord, VfsChange, VfsEntry, VfsFolder, VfsListed } from '../../../vfs/types.js';
import type { AdminPrincipal, Principal } from '../../../auth/principal.js';

export interface CrawlLimits {
  /** A mount is crawled again this long after its last crawl (default 15 min). */
  intervalMs: number;
  /** Entries one crawl run indexes at most (default 200,000). */
  maxEntries: number;
  /** Time one crawl run takes at most (default 60 s). */
  maxMs: number;
  /** How often the scheduler looks for mounts due (default 60 s). */
  tickMs: number;
}

export const DEFAULT_CRAWL: CrawlLimits = {
  intervalMs: 15 * 60_000,
  maxEntries: 200_000,
  maxMs: 60_000,
  tickMs: 60_000,
};

/** A folder listed from its storage again within this long is not indexed again (a busy folder, a bench). */
export const LISTING_REINDEX_MS = 60_000;
/** Folders whose last listing time is remembered (the oldest is forgotten first). */
const LISTED_MEMORY = 10_000;
/**
 * Index rows built and written between two turns of the event loop when a folder's listing is taken in: one
 * insert statement of the repository (SQLite writes block the thread; 1,000 rows held the loop for 50-100 ms).
 */
const INDEX_SLICE = 200;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The crawler sees every mount (the caller's own view is applied when searching). */
const CRAWLER: AdminPrincipal = {
  type: 'admin',
  adminId: 'search-crawler',
  username: 'search-crawler',
  tokenHash: '',
  expiresAt: '',
};

export interface CrawlState {
  finishedAt: string;
  entries: number;
  /** false when the run stopped at a limit (the rest of the mount is indexed by listings and writes only). */
  complete: boolean;
}

function relOf(mount: MountRecord, virtualPath: string): string {
  return virtualPath === mount.path ? '' : virtualPath.slice(mount.path === '/' ? 1 : mount.path.length + 1);
}

function parentOf(rel: string): string {
  const slash = rel.lastIndexOf('/');
  return slash < 0 ? '' : rel.slice(0, slash);
}

/** The part of a mount a path reaches: the whole mount, a folder inside it, or nothing. */
function reach(mount: MountRecord, path: string): IndexScope | null {
  if (isPathWithin(mount.path, path)) return { mountId: mount.id };
  if (isPathWithin(path, mount.path)) return { mountId: mount.id, under: relOf(mount, path) };
  return null;
}

/** Both reaches at once (the deeper folder wins). */
function intersect(a: IndexScope | null, b: IndexScope | null): IndexScope | null {
  if (!a || !b) return null;
  const ua = a.under ?? '';
  const ub = b.under ?? '';
  if (ua === '' || ub === ua || ub.startsWith(`${ua}/`)) return b;
  if (ub === '' || ua.startsWith(`${ub}/`)) return a;
  return null;
}

/**
 * Whether a folder's children as listed now differ from what the index held: a name new or gone, a kind changed,
 * a file's size or time changed (a folder's own time is left out: S3 has none, and its content is compared when
 * the crawl lists it).
 */
export function changedSince(
  before: ReadonlyArray<{ rel_path: string; is_dir: number; size: number; last_modified: string | null }>,
  now: ReadonlyArray<Pick<FsIndexRow, 'rel_path' | 'is_dir' | 'size' | 'last_modified'>>,
): boolean {
  if (before.length !== now.length) return true;
  const old = new Map(before.map((row) => [row.rel_path, row]));
  for (const row of now) {
    const was = old.get(row.rel_path);
    if (!was || was.is_dir !== row.is_dir) return true;
    if (row.is_dir === 0 && (was.size !== row.size || was.last_modified !== row.last_modified)) return true;
  }
  return false;
}

export class SearchService {
  private readonly crawls = new Map<string, CrawlState>();
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private stopped = false;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeListed: () => void;
  private pending = Promise.resolve();
  /** When each folder (`mountId\0path`) was last taken in from a listing. */
  private readonly listedAt = new Map<string, number>();
  /** Listings waiting for their turn; a newer listing of the same folder replaces the waiting one. */
  private readonly queuedListings = new Map<string, VfsListed>();

  constructor(
    private readonly deps: {
      vfs: Vfs;
      index: FsIndexRepository;
      clock: Clock;
      logger: Logger;
      crawl?: Partial<CrawlLimits>;
      /**
       * Several instances: runs a mount's crawl only when no instance crawled it within the interval (and none
       * crawls it now): `Cluster.runDue`. Without it every due crawl runs here.
       */
      runDue?: (name: string, everyMs: number, now: Date, fn: () => Promise<void>) => Promise<boolean>;
      /**
       * The crawl found a folder's children changed on the storage behind the app's back (a name new or gone, a
       * file's size or time changed since it was indexed): `folder` is its virtual path (WebDAV folder ETags).
       */
      onStorageChange?: (folder: string) => void;
    },
  ) {
    this.unsubscribe = deps.vfs.onChange((change) => {
      // Applied in order, one at a time; a failure is logged, never the write's.
      this.pending = this.pending
        .then(() => this.apply(change))
        .catch((error: unknown) => deps.logger.error('search index update failed', error));
    });
    this.unsubscribeListed = deps.vfs.onListed((listed) => this.takeListing(listed));
  }

  /** Queues a folder read from its storage for the index (the crawl indexes its own listings itself). */
  private takeListing(listed: VfsListed): void {
    if (listed.principal === CRAWLER || this.stopped) return;
    const key = `${listed.mount.id}\u0000${listed.path}`;
    const last = this.listedAt.get(key);
    if (last !== undefined && this.deps.clock.now().getTime() - last < LISTING_REINDEX_MS) return;
    const waiting = this.queuedListings.has(key);
    this.queuedListings.set(key, listed);
    if (waiting) return;
    this.pending = this.pending
      .then(async () => {
        const latest = this.queuedListings.get(key);
        this.queuedListings.delete(key);
        if (!latest) return;
        this.listedAt.delete(key);
        this.listedAt.set(key, this.deps.clock.now().getTime());
        if (this.listedAt.size > LISTED_MEMORY) this.listedAt.delete(this.listedAt.keys().next().value as string);
        await this.indexListing(latest);
      })
      .catch((error: unknown) => this.deps.logger.error('search index update from a listing failed', error));
  }

  private async indexListing(listed: VfsListed): Promise<void> {
    const { mount, path, entries } = listed;
    // Turned into index entries a slice at a time (a folder of 100,000 entries is no single long task).
    function* slices(): Generator<VfsEntry[]> {
      for (let i = 0; i < entries.length; i += INDEX_SLICE) {
        yield entries.slice(i, i + INDEX_SLICE).map((entry) => ({
          name: entry.name,
          path: joinVirtualPath(path, entry.name),
          isDir: entry.isDir,
          size: entry.size,
          ...(entry.lastModified ? { lastModified: entry.lastModified.toISOString() } : {}),
          mountId: mount.id,
        }));
      }
    }
    // A folder read from storage may show a change made behind the app's back before the crawl gets there: once the
    // index holds it, the crawl would see nothing new, so the folders above it are told here too.
    const compare = this.deps.onStorageChange !== undefined && (await this.deps.index.hasMount(mount.id));
    const before = compare ? await this.deps.index.childStates(mount.id, relOf(mount, path)) : undefined;
    const written: FsIndexRow[] = [];
    await this.replaceChildren(mount, relOf(mount, path), slices(), before && written);
    if (before && changedSince(before, written)) this.deps.onStorageChange?.(path);
  }

  private get limits(): CrawlLimits {
    return { ...DEFAULT_CRAWL, ...this.deps.crawl };
  }

  /** Starts the background crawl (a first tick right away). */
  start(): void {
    this.stopped = false;
    const tick = () => {
      this.ticking ??= this.crawlDue()
        .catch((error: unknown) => this.deps.logger.error('search crawl failed', error))
        .finally(() => {
          this.ticking = undefined;
        });
    };
    this.timer = setInterval(tick, this.limits.tickMs);
    this.timer.unref();
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.unsubscribe();
    this.unsubscribeListed();
    this.queuedListings.clear();
    await this.ticking;
    await this.pending;
  }

  /** Waits until every change seen so far is in the index (tests, benches). */
  async settled(): Promise<void> {
    await this.pending;
  }

  crawlState(mountId: string): CrawlState | undefined {
    return this.crawls.get(mountId);
  }

  async search(principal: Principal, query: SearchQuery): Promise<SearchResult> {
    const { vfs } = this.deps;
    if (principal.type === 'apikey' && (principal.permissions & Permission.MOUNT_VIEW) === 0)
      throw AppError.forbidden('this API key lacks the mount_view permission');
    const mounts = (await vfs.mounts(principal)).filter((m) => m.is_active);
    const base = principal.type === 'admin' ? '/' : principal.basicPath || '/';
    let within = base;
    let candidates = mounts;
    if (query.scope === 'mount') {
      candidates = mounts.filter((m) => m.id === query.mount_id);
      if (candidates.length === 0) throw AppError.notFound(`mount ${query.mount_id} not found`);
    } else if (query.scope === 'directory') {
      within = vfs.normalise(query.path, 'path');
      vfs.authorize(principal, within, Permission.MOUNT_VIEW);
    }
    const scopes = candidates
      .map((mount) => intersect(reach(mount, base), reach(mount, within)))
      .filter((scope): scope is IndexScope => scope !== null);
    const { rows, total } = await this.deps.index.search(scopes, query.q.toLowerCase(), query);
    const byId = new Map(mounts.map((m) => [m.id, m]));
    const items: SearchHit[] = [];
    for (const row of rows) {
      const mount = byId.get(row.mount_id);
      if (!mount) continue;
      items.push({
        name: row.name,
        path: mount.path === '/' ? `/${row.rel_path}` : `${mount.path}/${row.rel_path}`,
        isDir: row.is_dir === 1,
        size: row.size,
        ...(row.last_modified ? { lastModified: row.last_modified } : {}),
        mountId: row.mount_id,
      });
    }
    const states = scopes.map((scope) => this.crawls.get(scope.mountId));
    const indexedAt = states.some((s) => !s)
      ? null
      : (states.map((s) => (s as CrawlState).finishedAt).sort()[0] ?? null);
    return { items, total, limit: query.limit, offset: query.offset, indexed_at: indexedAt };
  }

  /** Crawls the mounts that were never crawled or whose last crawl is older than the interval. */
  async crawlDue(): Promise<void> {
    const mounts = (await this.deps.vfs.allMounts()).filter((m) => m.is_active);
    await this.deps.index.removeMountsExcept((await this.deps.vfs.allMounts()).map((m) => m.id));
    const now = this.deps.clock.now().getTime();
    for (const mount of mounts) {
      if (this.stopped) return;
      const state = this.crawls.get(mount.id);
      if (state && now - Date.parse(state.finishedAt) < this.limits.intervalMs) continue;
      const { runDue } = this.deps;
      if (!runDue) await this.crawl(mount);
      else
        await runDue(`search-crawl:${mount.id}`, this.limits.intervalMs, new Date(now), async () => {
          await this.crawl(mount);
        });
    }
  }

  /** One bounded crawl of a mount: folders listed breadth first, each folder's children replaced in the index. */
  async crawl(mount: MountRecord): Promise<CrawlState> {
    // The first crawl of a mount has nothing to compare with: every folder would look changed.
    const compare = this.deps.onStorageChange !== undefined && (await this.deps.index.hasMount(mount.id));
    const { entries, complete } = await this.indexTree(mount, mount.path, compare);
    const state: CrawlState = { finishedAt: this.deps.clock.now().toISOString(), entries, complete };
    this.crawls.set(mount.id, state);
    return state;
  }

  /** Lists `root` and every folder below it into the index, within the crawl limits of one run. */
  private async indexTree(
    mount: MountRecord,
    root: string,
    compare = false,
  ): Promise<{ entries: number; complete: boolean }> {
    const { vfs, clock } = this.deps;
    const limits = this.limits;
    const started = clock.now().getTime();
    const queue = [root];
    let entries = 0;
    while (queue.length > 0) {
      if (this.stopped || entries >= limits.maxEntries || clock.now().getTime() - started > limits.maxMs)
        return { entries, complete: false };
      const dir = queue.shift() as string;
      // Read from the storage, not the listing cache: the crawl is how changes made behind the app's back come in.
      const folder: VfsFolder | undefined = await vfs.folder(CRAWLER, dir, true).catch((error: unknown) => {
        this.deps.logger.debug(`search crawl of ${dir} skipped: ${(error as Error).message}`);
        return undefined;
      });
      if (!folder) continue;
      const total = folder.folders.length + folder.own.length;
      const below: string[] = [];
      // The folder's entries a page at a time, as they are indexed (never all turned into entries at once).
      function* slices(listedFolder: VfsFolder): Generator<VfsEntry[]> {
        for (let offset = 0; offset < total; offset += INDEX_SLICE) {
          const listed = vfs
            .page(listedFolder, { offset, limit: INDEX_SLICE })
            .entries.filter((e) => e.mountId === mount.id && !e.isMount);
          // Not through links: what a link leads to is indexed where it really lives.
          for (const entry of listed) if (entry.isDir && !entry.isLink) below.push(entry.path);
          yield listed;
        }
      }
      const before = compare ? await this.deps.index.childStates(mount.id, relOf(mount, dir)) : undefined;
      const listedRows: FsIndexRow[] = [];
      entries += await this.replaceChildren(mount, relOf(mount, dir), slices(folder), before && listedRows);
      if (before && changedSince(before, listedRows)) this.deps.onStorageChange?.(dir);
      for (const path of below) queue.push(path);
    }
    return { entries, complete: true };
  }

  private row(mount: MountRecord, entry: VfsEntry): FsIndexRow {
    const rel = relOf(mount, entry.path);
    return {
      id: indexId(mount.id, rel),
      mount_id: mount.id,
      rel_path: rel,
      parent: parentOf(rel),
      name: entry.name,
      name_lower: entry.name.toLowerCase(),
      is_dir: entry.isDir ? 1 : 0,
      size: entry.isDir ? 0 : entry.size,
      last_modified: entry.lastModified ?? null,
      indexed_at: this.deps.clock.now().toISOString(),
    };
  }

  /** The entry's row and its parent folders' (a write creates them implicitly; S3 has no folder objects). */
  private withParents(mount: MountRecord, entry: VfsEntry): FsIndexRow[] {
    const rows = [this.row(mount, entry)];
    for (let dir = parentOf(relOf(mount, entry.path)); dir !== ''; dir = parentOf(dir)) {
      const name = dir.slice(dir.lastIndexOf('/') + 1);
      const path = `${mount.path === '/' ? '' : mount.path}/${dir}`;
      rows.push(this.row(mount, { name, path, isDir: true, size: 0 }));
    }
    return rows;
  }

  /**
   * A folder as just listed, its entries given a slice at a time: its children upserted, then the children gone
   * from storage dropped (with their subtrees). Answers how many children were listed. A big folder (a WebDAV
   * PROPFIND of 100,000 entries lists one) goes in a slice at a time with a turn of the event loop between
   * slices: SQLite writes block the thread, and other requests wait for no index.
   */
  private async replaceChildren(
    mount: MountRecord,
    parent: string,
    slices: Iterable<VfsEntry[]>,
    /** When given, receives the rows written (the crawl compares them with what was indexed before). */
    written?: FsIndexRow[],
  ): Promise<number> {
    const { index } = this.deps;
    const present = new Set<string>();
    let first = true;
    for (const slice of slices) {
      if (!first) await turn();
      first = false;
      const rows = slice.map((entry) => this.row(mount, entry));
      for (const row of rows) present.add(row.rel_path);
      written?.push(...rows);
      if (rows.length > 0) await index.upsert(rows);
    }
    // Every listed child is in the index now: only more children than listed means some are gone (one count
    // instead of reading back every child of a folder that did not change).
    if ((await index.countChildren(mount.id, parent)) > present.size) {
      await turn();
      for (const old of await index.childPaths(mount.id, parent))
        if (!present.has(old.rel_path)) await index.removeTree(mount.id, old.rel_path);
    }
    return present.size;
  }

  private async apply(change: VfsChange): Promise<void> {
    const { vfs, index } = this.deps;
    const mount = await vfs.mountById(change.mountId);
    const mountOf = async (path: string) =>
      mount && isPathWithin(path, mount.path)
        ? mount
        : (await vfs.allMounts())
            .filter((m) => isPathWithin(path, m.path))
            .sort((a, b) => b.path.length - a.path.length)[0];
    switch (change.type) {
      case 'write':
      case 'mkdir':
      case 'copy': {
        const path = change.type === 'copy' ? change.toPath : change.path;
        const at = path && (await mountOf(path));
        if (at && change.entry && path !== at.path) await index.upsert(this.withParents(at, { ...change.entry, path }));
        return;
      }
      case 'remove': {
        const at = await mountOf(change.path);
        if (at) await index.removeTree(at.id, relOf(at, change.path));
        return;
      }
      case 'move': {
        const from = await mountOf(change.path);
        if (from) await index.removeTree(from.id, relOf(from, change.path));
        if (!change.toPath) return;
        const to = await mountOf(change.toPath);
        if (!to) return;
        const entry = change.entry ?? (await vfs.stat(CRAWLER, change.toPath).catch(() => undefined));
        if (!entry) return;
        await index.upsert(this.withParents(to, { ...entry, path: change.toPath }));
        if (entry.isDir) await this.indexTree(to, change.toPath);
        return;
      }
    }
  }
}
