import type { Entry, ListPage, ListResult } from './types.js';

/** The most entries a page of a listing holds. */
export const MAX_LIST_PAGE = 1000;

/** How long the following pages of a listing may reuse what its first page listed. */
const SNAPSHOT_REUSE_MS = 5000;
/** Folders whose listings are kept for their following pages at once (walks through different folders). */
const SNAPSHOTS_KEPT = 8;

const byName = (a: Entry, b: Entry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** One page of a folder's entries sorted by name: `limit` entries after the cursor (the last name of the page before). */
function pageOfSorted(entries: Entry[], page: ListPage): ListResult {
  const limit = Math.max(1, Math.min(page.limit ?? MAX_LIST_PAGE, MAX_LIST_PAGE));
  const cursor = page.cursor;
  const start = cursor === undefined ? 0 : firstAfter(entries, cursor);
  const slice = entries.slice(start, start + limit);
  const last = slice.at(-1);
  return { entries: slice, ...(entries.length - start > limit && last ? { cursor: last.name } : {}) };
}

/** The index of the first entry named after `name` in entries sorted by byName (binary search). */
function firstAfter(entries: Entry[], name: string): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (entries[mid]!.name > name) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * Pages of folders that a remote server answers whole (WebDAV, SFTP, FTP). A listing's first page asks the server;
 * its following pages (a cursor) are cut from that same answer for a few seconds instead of asking the server for
 * the whole folder again per page: a folder of 10,000 entries walked 1,000 at a time cost ten PROPFINDs (or
 * readdirs, or LISTs) of 10,000 entries. The pages of one walk are then also one consistent view of the folder.
 */
export class ListingSnapshots {
  private readonly kept = new Map<string, { entries: Entry[]; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async page(dir: string, page: ListPage, listWhole: () => Promise<Entry[]>): Promise<ListResult> {
    const hit = page.cursor === undefined ? undefined : this.kept.get(dir);
    if (hit && this.now() - hit.at < SNAPSHOT_REUSE_MS) return pageOfSorted(hit.entries, page);
    const entries = (await listWhole()).sort(byName);
    this.kept.delete(dir);
    this.kept.set(dir, { entries, at: this.now() });
    while (this.kept.size > SNAPSHOTS_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    return pageOfSorted(entries, page);
  }

  /** Forgets every kept listing (the driver closed). */
  clear(): void {
    this.kept.clear();
  }
}
