import type { Entry, ListPage, ListResult } from './types.js';

/** The most entries a page of a listing holds. */
export const MAX_LIST_PAGE = 1000;

/**
 * One page of a folder listed whole (FTP, SFTP, WebDAV answer a folder at once): sorted by name (sorts
 * `entries` in place), `limit` entries after the cursor (the last name of the page before).
 */
export function pageByName(entries: Entry[], page: ListPage): ListResult {
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const limit = Math.max(1, Math.min(page.limit ?? MAX_LIST_PAGE, MAX_LIST_PAGE));
  const cursor = page.cursor;
  const start = cursor === undefined ? 0 : entries.findIndex((e) => e.name > cursor);
  const rest = start < 0 ? [] : entries.slice(start);
  const slice = rest.slice(0, limit);
  const last = slice.at(-1);
  return { entries: slice, ...(rest.length > limit && last ? { cursor: last.name } : {}) };
}
