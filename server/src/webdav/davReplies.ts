// Shapes WebDAV XML replies (multistatus, lockdiscovery, errors).
import { httpDateString, isoString } from '../lib/dateStrings.js';
import type { DavLock, DavPropfindItem, DavResource } from './davTypes.js';
import { DAV, escapeXml } from './xml.js';

export const XML_TYPE = 'application/xml; charset=utf-8';
const HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';

/** A property asked for by name. */
export interface PropName {
  ns: string;
  name: string;
}

export type PropRequest =
  { kind: 'allprop'; include: PropName[] } | { kind: 'propname' } | { kind: 'prop'; props: PropName[] };

const LIVE_NAMES = [
  'creationdate',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'resourcetype',
  'supportedlock',
  'lockdiscovery',
];

/** ownCloud's and Nextcloud's property namespaces (their desktop and phone apps ask for these). */
export const OC_NS = 'http://owncloud.org/ns';
export const NC_NS = 'http://nextcloud.org/ns';

/**
 * Where a reply's hrefs point and what it adds: `base` is the URL path the tree is served under (`/dav`,
 * `/remote.php/webdav`, `/remote.php/dav/files/<user>`); `oc` answers the ownCloud properties Nextcloud-style
 * clients ask for, with the permissions of the caller.
 */
export interface DavView {
  base: string;
  oc?: { writable: boolean };
}

export const PLAIN_VIEW: DavView = { base: '/dav' };

/** An href for a virtual path: each segment percent-encoded, folders with a trailing slash. */
export function hrefOf(path: string, isDir: boolean, base = '/dav'): string {
  const encoded = path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
  const href = `${base}${encoded === '/' ? '' : encoded}`;
  return isDir ? `${href}/` : href;
}

/** A stable number for a path (ownCloud's `fileid`): what a sync client recognises a file by between runs. */
export function fileIdOf(path: string): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  // 47 bits: a safe integer on every client.
  return (h1 % 0x8000) * 0x100000000 + h2 + 1;
}

/** ownCloud's `id`: the file id and the instance, as the apps show and send it back. */
export function ocIdOf(path: string): string {
  return `${String(fileIdOf(path)).padStart(8, '0')}occlipnest`;
}

/** ownCloud permission letters: S(hared) R(eshare) G(et) D(elete) N(ame) V(move) W(rite) C(reate file) K(mkdir). */
function ocPermissions(r: DavResource, writable: boolean): string {
  if (!writable) return 'G';
  return r.isDir ? 'GDNVCK' : 'GDNVW';
}

function ocProp(name: string, r: DavResource, view: DavView): string | undefined {
  if (!view.oc) return undefined;
  switch (name) {
    case 'fileid':
      return `<oc:fileid xmlns:oc="${OC_NS}">${fileIdOf(r.path)}</oc:fileid>`;
    case 'id':
      return `<oc:id xmlns:oc="${OC_NS}">${ocIdOf(r.path)}</oc:id>`;
    case 'permissions':
      return `<oc:permissions xmlns:oc="${OC_NS}">${ocPermissions(r, view.oc.writable)}</oc:permissions>`;
    case 'size':
      return `<oc:size xmlns:oc="${OC_NS}">${r.size}</oc:size>`;
    case 'share-types':
      return `<oc:share-types xmlns:oc="${OC_NS}"/>`;
    case 'data-fingerprint':
      return `<oc:data-fingerprint xmlns:oc="${OC_NS}"></oc:data-fingerprint>`;
    default:
      return undefined;
  }
}

function ncProp(name: string, view: DavView): string | undefined {
  if (!view.oc) return undefined;
  switch (name) {
    case 'has-preview':
      return `<nc:has-preview xmlns:nc="${NC_NS}">false</nc:has-preview>`;
    case 'is-encrypted':
      return `<nc:is-encrypted xmlns:nc="${NC_NS}">0</nc:is-encrypted>`;
    default:
      return undefined;
  }
}

export function activeLock(lock: DavLock, base = '/dav'): string {
  return (
    '<D:activelock>' +
    `<D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.depth === '0' ? '0' : 'infinity'}</D:depth>` +
    lock.owner +
    `<D:timeout>Second-${lock.timeoutSeconds}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(hrefOf(lock.root, false, base))}</D:href></D:lockroot>` +
    '</D:activelock>'
  );
}

export function lockDiscovery(locks: DavLock[], base = '/dav'): string {
  return `<D:lockdiscovery>${locks.map((lock) => activeLock(lock, base)).join('')}</D:lockdiscovery>`;
}

/** The body of a LOCK answer. */
export function lockReply(lock: DavLock, base = '/dav'): string {
  return `${HEAD}<D:prop xmlns:D="DAV:">${lockDiscovery([lock], base)}</D:prop>`;
}

const SUPPORTED_LOCK =
  '<D:supportedlock>' +
  '<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>' +
  '</D:supportedlock>';

/** A live property's element, or undefined when the resource has none by that name. */
function liveProp(name: string, r: DavResource, locks: DavLock[], base: string): string | undefined {
  switch (name) {
    case 'creationdate':
      return `<D:creationdate>${isoString(r.lastModified)}</D:creationdate>`;
    case 'displayname':
      return `<D:displayname>${escapeXml(r.name)}</D:displayname>`;
    case 'getcontentlength':
      return r.isDir ? undefined : `<D:getcontentlength>${r.size}</D:getcontentlength>`;
    case 'getcontenttype':
      return r.contentType ? `<D:getcontenttype>${escapeXml(r.contentType)}</D:getcontenttype>` : undefined;
    case 'getetag':
      return r.etag ? `<D:getetag>${escapeXml(r.etag)}</D:getetag>` : undefined;
    case 'getlastmodified':
      return `<D:getlastmodified>${httpDateString(r.lastModified)}</D:getlastmodified>`;
    case 'resourcetype':
      return r.isDir ? '<D:resourcetype><D:collection/></D:resourcetype>' : '<D:resourcetype/>';
    case 'supportedlock':
      return SUPPORTED_LOCK;
    case 'lockdiscovery':
      return lockDiscovery(locks, base);
    // RFC 4331 (asked for by name only: not part of allprop or propname).
    case 'quota-available-bytes':
      return r.quota ? `<D:quota-available-bytes>${r.quota.availableBytes}</D:quota-available-bytes>` : undefined;
    case 'quota-used-bytes':
      return r.quota ? `<D:quota-used-bytes>${r.quota.usedBytes}</D:quota-used-bytes>` : undefined;
    default:
      return undefined;
  }
}

function emptyElement(p: PropName): string {
  return p.ns === DAV ? `<D:${p.name}/>` : `<X:${p.name} xmlns:X="${escapeXml(p.ns)}"/>`;
}

function propstat(props: string[], status: string): string {
  return props.length === 0
    ? ''
    : `<D:propstat><D:prop>${props.join('')}</D:prop><D:status>HTTP/1.1 ${status}</D:status></D:propstat>`;
}

const COLLECTION_TYPE = '<D:resourcetype><D:collection/></D:resourcetype>';
const EMPTY_LOCKS = '<D:lockdiscovery></D:lockdiscovery>';

/**
 * The live properties of `allprop` in LIVE_NAMES order, straight into one string: the common case
 * (a folder listing with no dead properties and no locks) costs one template per resource.
 */
function allLive(r: DavResource, locks: DavLock[], base: string): string {
  return (
    `<D:creationdate>${isoString(r.lastModified)}</D:creationdate>` +
    `<D:displayname>${escapeXml(r.name)}</D:displayname>` +
    (r.isDir ? '' : `<D:getcontentlength>${r.size}</D:getcontentlength>`) +
    (r.contentType ? `<D:getcontenttype>${escapeXml(r.contentType)}</D:getcontenttype>` : '') +
    (r.etag ? `<D:getetag>${escapeXml(r.etag)}</D:getetag>` : '') +
    `<D:getlastmodified>${httpDateString(r.lastModified)}</D:getlastmodified>` +
    (r.isDir ? COLLECTION_TYPE : '<D:resourcetype/>') +
    SUPPORTED_LOCK +
    (locks.length === 0 ? EMPTY_LOCKS : lockDiscovery(locks, base))
  );
}

/** One `D:response` of a PROPFIND. */
function propfindResponse(item: DavPropfindItem, request: PropRequest, href: string, view: DavView): string {
  const { resource, dead, locks } = item;
  const { base } = view;
  if (request.kind === 'allprop' && request.include.length === 0 && dead.length === 0) {
    return (
      `<D:response><D:href>${escapeXml(href)}</D:href><D:propstat><D:prop>${allLive(resource, locks, base)}</D:prop>` +
      '<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>'
    );
  }
  const found: string[] = [];
  const missing: string[] = [];
  if (request.kind === 'propname') {
    for (const name of LIVE_NAMES) if (liveProp(name, resource, locks, base) !== undefined) found.push(`<D:${name}/>`);
    for (const d of dead) found.push(emptyElement(d));
  } else {
    const wanted: PropName[] =
      request.kind === 'prop' ? request.props : [...LIVE_NAMES.map((name) => ({ ns: DAV, name })), ...request.include];
    const seen = new Set<string>();
    for (const p of wanted) {
      const key = `${p.ns}\u0000${p.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const live =
        p.ns === DAV
          ? liveProp(p.name, resource, locks, base)
          : p.ns === OC_NS
            ? ocProp(p.name, resource, view)
            : p.ns === NC_NS
              ? ncProp(p.name, view)
              : undefined;
      const stored = dead.find((d) => d.ns === p.ns && d.name === p.name);
      if (live !== undefined) found.push(live);
      else if (stored) found.push(stored.xml);
      else if (request.kind === 'prop') missing.push(emptyElement(p));
    }
    if (request.kind === 'allprop') {
      for (const d of dead) if (!seen.has(`${d.ns}\u0000${d.name}`)) found.push(d.xml);
    }
  }
  return (
    `<D:response><D:href>${escapeXml(href)}</D:href>` +
    propstat(found, '200 OK') +
    propstat(missing, '404 Not Found') +
    '</D:response>'
  );
}

/** Characters per chunk of a streamed multistatus. */
const CHUNK_CHARS = 64 * 1024;

/** Writes the `D:response`s of a multistatus; members of the first resource (Depth 1) reuse its encoded href. */
function responder(request: PropRequest, view: DavView): (item: DavPropfindItem) => string {
  let first: DavResource | undefined;
  let prefix = '';
  let memberOf = '';
  return (item) => {
    const r = item.resource;
    if (!first) {
      first = r;
      prefix = hrefOf(r.path, true, view.base);
      memberOf = r.path === '/' ? '/' : `${r.path}/`;
    }
    const member =
      r !== first && r.path.startsWith(memberOf) && r.path.indexOf('/', memberOf.length) < 0 && r.name !== '';
    const href = member
      ? `${prefix}${encodeURIComponent(r.name)}${r.isDir ? '/' : ''}`
      : hrefOf(r.path, r.isDir, view.base);
    return propfindResponse(item, request, href, view);
  };
}

const MULTISTATUS_OPEN = `${HEAD}<D:multistatus xmlns:D="DAV:">`;
const MULTISTATUS_CLOSE = '</D:multistatus>';

/**
 * A PROPFIND's multistatus as string chunks of ~64 KB, one `D:response` after another, from pages of items
 * (never the whole document at once; the pages' producer decides when the event loop gets a turn).
 */
export async function* propfindStream(
  pages: AsyncIterable<DavPropfindItem[]>,
  request: PropRequest,
  view: DavView = PLAIN_VIEW,
): AsyncGenerator<string> {
  const respond = responder(request, view);
  let chunk = MULTISTATUS_OPEN;
  for await (const page of pages) {
    for (const item of page) {
      chunk += respond(item);
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
  }
  yield `${chunk}${MULTISTATUS_CLOSE}`;
}

export function propfindReply(items: DavPropfindItem[], request: PropRequest, view: DavView = PLAIN_VIEW): string {
  const respond = responder(request, view);
  let out = MULTISTATUS_OPEN;
  for (const item of items) out += respond(item);
  return out + MULTISTATUS_CLOSE;
}

const REASONS: Record<number, string> = { 200: 'OK', 403: 'Forbidden', 424: 'Failed Dependency' };

export function proppatchReply(
  path: string,
  isDir: boolean,
  results: Array<PropName & { status: number }>,
  base = '/dav',
): string {
  const byStatus = new Map<number, string[]>();
  for (const r of results) byStatus.set(r.status, [...(byStatus.get(r.status) ?? []), emptyElement(r)]);
  const stats = [...byStatus].map(([status, props]) => propstat(props, `${status} ${REASONS[status] ?? ''}`)).join('');
  return `${HEAD}<D:multistatus xmlns:D="DAV:"><D:response><D:href>${escapeXml(hrefOf(path, isDir, base))}</D:href>${stats}</D:response></D:multistatus>`;
}

/** A `D:error` body with a precondition element (e.g. propfind-finite-depth) and a description. */
export function errorReply(message: string, condition?: string): string {
  return `${HEAD}<D:error xmlns:D="DAV:">${condition ? `<D:${condition}/>` : ''}<D:responsedescription>${escapeXml(message)}</D:responsedescription></D:error>`;
}
