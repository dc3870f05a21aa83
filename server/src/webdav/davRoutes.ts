// /dav and /dav/…: parse the WebDAV request, call the WebDAV service, shape the XML reply (ARCHITECTURE.md).
import type { Context } from 'hono';
import { Hono } from 'hono';
import { AppError } from '../errors.js';
import type { AppEnv } from '../http/env.js';
import { conditionalFrom, replyContent } from '../http/replyContent.js';
import { Readable } from 'node:stream';
import { nodeRequestBody } from '../http/requestBody.js';
import type { Logger } from '../lib/logger.js';
import type { DavAuth } from '../services/webdav/davAuth.js';
import { followsCrossHostRedirects } from '../services/webdav/redirectClients.js';
import type { IfList } from '../services/webdav/types.js';
import { WebdavService } from '../services/webdav/webdavService.js';
import {
  errorReply,
  lockReply,
  propfindReply,
  propfindStream,
  proppatchReply,
  XML_TYPE,
  type PropRequest,
} from './davReplies.js';
import { parseIf } from './ifHeader.js';
import { DAV, child, elements, parseXml, serialize, type XmlElement } from './xml.js';

type Ctx = Context<AppEnv>;

/** Request bodies of PROPFIND / PROPPATCH / LOCK are small documents. */
const XML_BODY_MAX = 1024 * 1024;
/** PROPFIND answers with more resources than this are streamed (chunked) instead of sent with a length. */
const STREAM_FROM = 200;
/** RFC 4331 properties: computed only when a PROPFIND names them. */
const QUOTA_PROPS = new Set(['quota-available-bytes', 'quota-used-bytes']);
const METHODS = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';

/** The virtual path of a /dav URL path (still percent-encoded); 400 for an encoded slash inside a name. */
export function davPathOf(rawPath: string): string | undefined {
  if (rawPath !== '/dav' && !rawPath.startsWith('/dav/')) return undefined;
  const segments = rawPath.slice(4).split('/');
  const decoded = segments.map((s) => {
    let part: string;
    try {
      part = decodeURIComponent(s);
    } catch {
      throw AppError.validation('malformed percent-encoding in the path');
    }
    if (part.includes('/')) throw AppError.validation('an encoded slash is not allowed in a name');
    return part;
  });
  const path = decoded.join('/');
  return path === '' ? '/' : path;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A URL from a header (Destination, an If tag) as its bytes spell it in UTF-8. Node reads header bytes as
 * latin-1, so a raw UTF-8 name (what several clients send instead of percent-encoding) would become mojibake;
 * Apache decodes the bytes as UTF-8 too. 400 when the bytes are not UTF-8.
 */
export function utf8HeaderUrl(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value) || /[\u0100-\uffff]/.test(value)) return value;
  try {
    return UTF8.decode(Buffer.from(value, 'latin1'));
  } catch {
    throw AppError.validation('a URL in the Destination or If header is not UTF-8: percent-encode it');
  }
}

export function rawPathOf(c: Ctx): string {
  const url = c.req.url;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const end = url.search(/[?#]/);
  return url.slice(start, end < 0 ? undefined : end);
}

async function readXmlBody(c: Ctx): Promise<XmlElement | undefined> {
  const length = Number(c.req.header('content-length') ?? '0');
  if (length > XML_BODY_MAX) throw new AppError('PAYLOAD_TOO_LARGE', 'the XML body is larger than 1 MB');
  const body = c.req.raw.body;
  if (!body) return undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > XML_BODY_MAX) throw new AppError('PAYLOAD_TOO_LARGE', 'the XML body is larger than 1 MB');
    chunks.push(chunk);
  }
  return parseXml(Buffer.concat(chunks).toString('utf8'));
}

function propNames(prop: XmlElement | undefined) {
  return prop ? elements(prop).map((e) => ({ ns: e.ns, name: e.local })) : [];
}

function propRequestOf(body: XmlElement | undefined): PropRequest {
  if (!body) return { kind: 'allprop', include: [] };
  if (body.ns !== DAV || body.local !== 'propfind') throw AppError.validation('expected a DAV:propfind body');
  if (child(body, DAV, 'propname')) return { kind: 'propname' };
  if (child(body, DAV, 'allprop')) return { kind: 'allprop', include: propNames(child(body, DAV, 'include')) };
  const prop = child(body, DAV, 'prop');
  if (!prop) throw AppError.validation('DAV:propfind needs prop, allprop or propname');
  return { kind: 'prop', props: propNames(prop) };
}

export function davRoutes(deps: { webdav: WebdavService; davAuth: DavAuth; logger: Logger; publicUrl?: string }) {
  const { webdav, davAuth } = deps;

  /** A Destination or If-tag URL as a virtual path: undefined when it points at another host. 403 outside /dav. */
  const pathOfUrl = (c: Ctx, value: string): string | undefined => {
    let url: URL;
    const decoded = utf8HeaderUrl(value);
    try {
      url = new URL(decoded, c.req.url);
    } catch {
      throw AppError.validation('malformed URL');
    }
    const here = new URL(c.req.url);
    const host = c.req.header('host') ?? here.host;
    const publicHost = deps.publicUrl ? new URL(deps.publicUrl).host : undefined;
    if (url.host !== host && url.host !== here.host && url.host !== publicHost) return undefined;
    const path = davPathOf(url.pathname);
    if (path === undefined) throw AppError.forbidden('the destination is outside /dav');
    return path;
  };

  const ifListsOf = (c: Ctx): IfList[] | undefined => {
    const header = c.req.header('if');
    return header ? parseIf(header, (url) => pathOfUrl(c, url)) : undefined;
  };

  const depthOf = (c: Ctx, fallback: 'infinity' | '0' | '1') => {
    const depth = (c.req.header('depth') ?? fallback).trim().toLowerCase();
    if (depth !== '0' && depth !== '1' && depth !== 'infinity')
      throw AppError.validation('Depth must be 0, 1 or infinity');
    return depth;
  };

  const xml = (c: Ctx, body: string, status: number) => {
    c.header('Content-Type', XML_TYPE);
    return c.body(body, status as 200);
  };

  const handle = async (c: Ctx): Promise<Response> => {
    c.header('DAV', '1, 2');
    c.header('MS-Author-Via', 'DAV');
    const method = c.req.method.toUpperCase();
    // A fragment never belongs in a request (a client that sends one means something else: refuse it).
    if (c.req.url.includes('#')) throw AppError.validation('the request URI must not carry a fragment');
    const path = davPathOf(rawPathOf(c)) as string;
    if (method === 'OPTIONS') {
      c.header('Allow', METHODS);
      c.header('Accept-Ranges', 'bytes');
      return c.body(null, 200);
    }
    const principal = await davAuth.authenticate(c.req.header('authorization'), c.var.clientAddress);
    c.set('principal', principal);
    switch (method) {
      case 'GET':
      case 'HEAD': {
        const base = conditionalFrom(c);
        const since = c.req.header('if-modified-since');
        const result = await webdav.content(
          principal,
          path,
          {
            head: method === 'HEAD',
            // Only clients known to follow a redirect to another host get one (302_redirect mounts).
            allowRedirect: followsCrossHostRedirects(c.req.header('user-agent')),
          },
          (info) => {
            const out = base(info);
            if (!out.notModified && since && !c.req.header('if-none-match')) {
              const t = Date.parse(since);
              if (!Number.isNaN(t) && Math.floor(info.lastModified.getTime() / 1000) <= Math.floor(t / 1000)) {
                return { ...out, notModified: true };
              }
            }
            return out;
          },
        );
        if (result.kind === 'collection') {
          c.header('Content-Type', 'text/plain; charset=utf-8');
          return method === 'HEAD' ? c.body(null, 200) : c.body(`WebDAV collection ${result.resource.path}\n`, 200);
        }
        return replyContent(c, result);
      }
      case 'PROPFIND': {
        const depth = depthOf(c, 'infinity');
        const request = propRequestOf(await readXmlBody(c));
        if (depth === 'infinity') {
          return xml(c, errorReply('Depth: infinity is not served: use Depth 0 or 1', 'propfind-finite-depth'), 403);
        }
        const named = request.kind === 'prop' ? request.props : request.kind === 'allprop' ? request.include : [];
        const quota = named.some((p) => p.ns === DAV && QUOTA_PROPS.has(p.name));
        const { total, pages } = await webdav.propfindPages(principal, path, depth, { quota });
        if (total <= STREAM_FROM) {
          const items = [];
          for await (const page of pages) items.push(...page);
          return xml(c, propfindReply(items, request), 207);
        }
        // A big folder: the multistatus goes out in chunks as it is written, never whole in memory, and the
        // service gives the event loop a turn between pages of members (other requests go on being answered).
        const chunks = propfindStream(pages, request);
        const encoder = new TextEncoder();
        c.header('Content-Type', XML_TYPE);
        return c.body(
          new ReadableStream<Uint8Array>({
            async pull(controller) {
              const next = await chunks.next();
              if (next.done) controller.close();
              else controller.enqueue(encoder.encode(next.value));
            },
            async cancel() {
              await chunks.return(undefined);
            },
          }),
          207,
        );
      }
      case 'PROPPATCH': {
        // Who may write where is settled before a byte of the body is read (a read-only key is refused at once).
        await webdav.proppatchTarget(principal, path);
        const body = await readXmlBody(c);
        if (!body || body.ns !== DAV || body.local !== 'propertyupdate') {
          throw AppError.validation('expected a DAV:propertyupdate body');
        }
        const changes = elements(body, DAV).flatMap((op) => {
          if (op.local !== 'set' && op.local !== 'remove') return [];
          const prop = child(op, DAV, 'prop');
          return prop
            ? elements(prop).map((e) =>
                op.local === 'set'
                  ? { op: 'set' as const, ns: e.ns, name: e.local, xml: serialize(e) }
                  : { op: 'remove' as const, ns: e.ns, name: e.local },
              )
            : [];
        });
        const results = await webdav.proppatch(principal, path, changes, { ifLists: ifListsOf(c) });
        const target = await webdav.find(principal, path);
        return xml(c, proppatchReply(target?.path ?? path, target?.isDir ?? false, results), 207);
      }
      case 'PUT': {
        const length = c.req.header('content-length');
        const size = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
        const contentType = c.req.header('content-type');
        // Nextcloud-style clients send the file's modification time (Unix seconds).
        const ocMtime = c.req.header('x-oc-mtime');
        let mtime: Date | undefined;
        if (ocMtime !== undefined) {
          const seconds = /^\s*\d{1,12}(\.\d+)?\s*$/.test(ocMtime) ? Number(ocMtime) : NaN;
          if (!Number.isFinite(seconds)) throw AppError.validation('X-OC-Mtime must be Unix seconds');
          mtime = new Date(Math.floor(seconds) * 1000);
        }
        // The socket's own Node stream: no Web stream in between (flat memory, fewer copies).
        const result = await webdav.put(principal, path, nodeRequestBody(c) ?? Readable.from([]), {
          ...(size !== undefined ? { size } : {}),
          ...(contentType ? { contentType } : {}),
          ...(mtime ? { mtime } : {}),
          signal: c.req.raw.signal,
          ifLists: ifListsOf(c),
        });
        if (result.etag) c.header('ETag', result.etag);
        if (mtime) c.header('X-OC-MTime', 'accepted');
        return c.body(null, result.created ? 201 : 204);
      }
      case 'DELETE':
        await webdav.delete(principal, path, { ifLists: ifListsOf(c) });
        return c.body(null, 204);
      case 'MKCOL': {
        const length = c.req.header('content-length');
        if ((length !== undefined && length !== '0') || c.req.header('transfer-encoding')) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'MKCOL with a body is not supported');
        }
        await webdav.mkcol(principal, path, { ifLists: ifListsOf(c) });
        return c.body(null, 201);
      }
      case 'COPY':
      case 'MOVE': {
        const destination = c.req.header('destination');
        if (!destination) throw AppError.validation('the Destination header is required');
        const to = pathOfUrl(c, destination);
        if (to === undefined) throw new AppError('BAD_GATEWAY', 'the destination is on another server');
        const depth = depthOf(c, 'infinity');
        if (depth === '1' || (method === 'MOVE' && depth !== 'infinity')) {
          throw AppError.validation(`Depth ${depth} is not allowed for ${method}`);
        }
        const overwrite = (c.req.header('overwrite') ?? 'T').trim().toUpperCase();
        if (overwrite !== 'T' && overwrite !== 'F') throw AppError.validation('Overwrite must be T or F');
        const result = await webdav.transfer(principal, method === 'COPY' ? 'copy' : 'move', path, to, {
          depth: depth === '0' ? '0' : 'infinity',
          overwrite: overwrite === 'T',
          ifLists: ifListsOf(c),
        });
        return c.body(null, result.created ? 201 : 204);
      }
      case 'LOCK': {
        const timeoutSeconds = WebdavService.timeoutOf(c.req.header('timeout'));
        webdav.assertMayWrite(principal);
        const body = await readXmlBody(c);
        const ifLists = ifListsOf(c);
        if (!body) {
          if (!ifLists) throw AppError.validation('a LOCK refresh needs an If header with the lock token');
          const lock = await webdav.refreshLock(principal, path, ifLists, timeoutSeconds);
          return xml(c, lockReply(lock), 200);
        }
        if (body.ns !== DAV || body.local !== 'lockinfo') throw AppError.validation('expected a DAV:lockinfo body');
        const scopeEl = child(body, DAV, 'lockscope');
        const scope = scopeEl && child(scopeEl, DAV, 'shared') ? 'shared' : 'exclusive';
        if (!scopeEl || (!child(scopeEl, DAV, 'shared') && !child(scopeEl, DAV, 'exclusive'))) {
          throw AppError.validation('DAV:lockinfo needs a lockscope of exclusive or shared');
        }
        const ownerEl = child(body, DAV, 'owner');
        const depth = depthOf(c, 'infinity');
        if (depth === '1') throw AppError.validation('Depth 1 is not allowed for LOCK');
        const { lock, created } = await webdav.lock(principal, path, {
          depth: depth === '0' ? '0' : 'infinity',
          scope,
          owner: ownerEl ? serialize(ownerEl) : '',
          timeoutSeconds,
          ...(ifLists ? { ifLists } : {}),
        });
        c.header('Lock-Token', `<${lock.token}>`);
        return xml(c, lockReply(lock), created ? 201 : 200);
      }
      case 'UNLOCK': {
        const token = /^\s*<([^>]+)>\s*$/.exec(c.req.header('lock-token') ?? '')?.[1];
        if (!token) throw AppError.validation('the Lock-Token header is required: <token>');
        await webdav.unlock(principal, path, token);
        return c.body(null, 204);
      }
      default:
        c.header('Allow', METHODS);
        throw new AppError('METHOD_NOT_ALLOWED', `${method} is not supported`);
    }
  };

  return new Hono<AppEnv>()
    .all('/', handle)
    .all('/*', handle)
    .onError((error, c) => {
      if (!(error instanceof AppError)) {
        deps.logger.error(`webdav ${c.req.method} failed`, error);
        return xml(c as Ctx, errorReply('internal error'), 500);
      }
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      // A write to a folder above the mounts (or a mount point) is refused, not malformed.
      const status =
        error.kind === 'VALIDATION' && /mount point|virtual folder/.test(error.message) ? 403 : error.status;
      return xml(c as Ctx, errorReply(error.message, status === 423 ? 'lock-token-submitted' : undefined), status);
    });
}
