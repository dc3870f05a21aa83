// PROPFIND answers (207 multistatus) as entries. Each response's href is decoded and checked against the
// collection asked for: a name that is absolute, has `..`, a slash or lies elsewhere is dropped, so a server
// can never make the driver address something outside its root.
import { XMLParser } from 'fast-xml-parser';
import { RESERVED_PREFIX } from '../paths.js';

export const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>' +
  '<d:resourcetype/><d:getcontentlength/><d:getlastmodified/><d:getetag/><d:getcontenttype/>' +
  '</d:prop></d:propfind>';

export interface DavItem {
  /** Decoded path of the href, as the server wrote it (absolute URL path). */
  hrefPath: string;
  isDir: boolean;
  size: number;
  lastModified?: Date;
  etag?: string;
  contentType?: string;
}

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  isArray: (name) => name === 'response' || name === 'propstat',
});

function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && '#text' in (value as object))
    return String((value as { '#text': unknown })['#text']);
  return undefined;
}

function decodeHref(href: string): string | undefined {
  try {
    const path = /^https?:\/\//i.test(href) ? new URL(href).pathname : href;
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** Parses a multistatus body into items (only the propstats answered 200). */
export function parseMultistatus(xml: string): DavItem[] {
  const doc = parser.parse(xml) as { multistatus?: { response?: unknown[] } };
  const out: DavItem[] = [];
  for (const raw of doc.multistatus?.response ?? []) {
    const response = raw as { href?: unknown; propstat?: Array<{ prop?: Record<string, unknown>; status?: unknown }> };
    const hrefPath = decodeHref(textOf(response.href) ?? '');
    if (hrefPath === undefined) continue;
    const props: Record<string, unknown> = {};
    for (const ps of response.propstat ?? []) {
      if (!/\s200\s/.test(` ${textOf(ps.status) ?? ''} `)) continue;
      Object.assign(props, ps.prop ?? {});
    }
    const rt = props.resourcetype;
    const isDir = typeof rt === 'object' && rt !== null && 'collection' in rt;
    const size = Number(textOf(props.getcontentlength) ?? 0);
    const modified = textOf(props.getlastmodified);
    const date = modified ? new Date(modified) : undefined;
    const etag = textOf(props.getetag)?.replace(/^W\//, '');
    out.push({
      hrefPath,
      isDir,
      size: Number.isFinite(size) && size >= 0 ? size : 0,
      ...(date && !Number.isNaN(date.getTime()) ? { lastModified: date } : {}),
      ...(etag && !isDir ? { etag: etag.startsWith('"') ? etag : `"${etag}"` } : {}),
      ...(textOf(props.getcontenttype) && !isDir ? { contentType: textOf(props.getcontenttype) } : {}),
    });
  }
  return out;
}

/** The child name of `item` under the collection at `dirHrefPath` (decoded, ending in '/'), or undefined. */
export function childName(dirHrefPath: string, item: DavItem): string | undefined {
  const path = item.hrefPath.replace(/\/+$/, '');
  const dir = dirHrefPath.replace(/\/+$/, '');
  if (path === dir) return undefined;
  if (!path.startsWith(`${dir}/`)) return undefined;
  const name = path.slice(dir.length + 1);
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\\')) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(name) || name.startsWith(RESERVED_PREFIX)) return undefined;
  return name;
}

/** RFC 4331: the quota properties of a collection. */
export const QUOTA_PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>' +
  '<d:quota-available-bytes/><d:quota-used-bytes/></d:prop></d:propfind>';

/** The first response's RFC 4331 figures, or undefined when the server did not answer both (a 404 propstat). */
export function parseQuota(xml: string): { usedBytes: number; availableBytes: number } | undefined {
  const doc = parser.parse(xml) as { multistatus?: { response?: unknown[] } };
  const response = doc.multistatus?.response?.[0] as
    { propstat?: Array<{ prop?: Record<string, unknown>; status?: unknown }> } | undefined;
  const props: Record<string, unknown> = {};
  for (const ps of response?.propstat ?? []) {
    if (/\s200\s/.test(` ${textOf(ps.status) ?? ''} `)) Object.assign(props, ps.prop ?? {});
  }
  const figure = (value: unknown) => {
    const text = textOf(value)?.trim();
    const n = text ? Number(text) : NaN;
    return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
  };
  const usedBytes = figure(props['quota-used-bytes']);
  const availableBytes = figure(props['quota-available-bytes']);
  return usedBytes === undefined || availableBytes === undefined ? undefined : { usedBytes, availableBytes };
}
