// What a WebDAV request says (path, headers, XML body), read the same way for every method.
import type { Context } from 'hono';
import { AppError } from '../errors.js';
import type { AppEnv } from '../http/env.js';
import type { Principal } from '../auth/principal.js';
import type { IfList } from './davTypes.js';
import { XML_TYPE, type DavView, type PropRequest } from './davReplies.js';
import { parseIf } from './ifHeader.js';
import { DAV, child, elements, parseXml, type XmlElement } from './xml.js';

export type Ctx = Context<AppEnv>;

/** Request bodies of PROPFIND / PROPPATCH / LOCK are small documents. */
const XML_BODY_MAX = 1024 * 1024;

/**
 * The virtual path of a URL path under `base` (still percent-encoded; `/dav` unless a Nextcloud-style address);
 * 400 for an encoded slash inside a name.
 */
export function davPathOf(rawPath: string, base = '/dav'): string | undefined {
  if (rawPath !== base && !rawPath.startsWith(`${base}/`)) return undefined;
  const segments = rawPath.slice(base.length).split('/');
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

/** The request URL's path exactly as sent (still percent-encoded). */
export function rawPathOf(c: Ctx): string {
  const url = c.req.url;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const end = url.search(/[?#]/);
  return url.slice(start, end < 0 ? undefined : end);
}

function propNames(prop: XmlElement | undefined) {
  return prop ? elements(prop).map((e) => ({ ns: e.ns, name: e.local })) : [];
}

/** What a PROPFIND body asks for (no body: allprop). */
export function propRequestOf(body: XmlElement | undefined): PropRequest {
  if (!body) return { kind: 'allprop', include: [] };
  if (body.ns !== DAV || body.local !== 'propfind') throw AppError.validation('expected a DAV:propfind body');
  if (child(body, DAV, 'propname')) return { kind: 'propname' };
  if (child(body, DAV, 'allprop')) return { kind: 'allprop', include: propNames(child(body, DAV, 'include')) };
  const prop = child(body, DAV, 'prop');
  if (!prop) throw AppError.validation('DAV:propfind needs prop, allprop or propname');
  return { kind: 'prop', props: propNames(prop) };
}

/** One authenticated WebDAV request: its target path, its caller and readers for the headers methods share. */
export class DavRequest {
  constructor(
    readonly c: Ctx,
    readonly method: string,
    readonly path: string,
    readonly principal: Principal,
    /** Where hrefs point (the base the request came in under) and what the replies add. */
    readonly view: DavView,
    private readonly publicUrl?: string,
  ) {}

  header(name: string): string | undefined {
    return this.c.req.header(name);
  }

  /** The XML body (bounded: 413 over 1 MB), or undefined when there is none. */
  async xmlBody(): Promise<XmlElement | undefined> {
    const length = Number(this.header('content-length') ?? '0');
    if (length > XML_BODY_MAX) throw new AppError('PAYLOAD_TOO_LARGE', 'the XML body is larger than 1 MB');
    const body = this.c.req.raw.body;
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

  /**
   * A Destination or If-tag URL as a virtual path: undefined when it points at another host. 403 when it is not
   * under this request's base (or the base `baseOf` finds in it: a chunked upload's MOVE names a file address).
   */
  pathOfUrl(value: string, baseOf?: (rawPath: string) => string | undefined): string | undefined {
    let url: URL;
    const decoded = utf8HeaderUrl(value);
    try {
      url = new URL(decoded, this.c.req.url);
    } catch {
      throw AppError.validation('malformed URL');
    }
    const here = new URL(this.c.req.url);
    const host = this.header('host') ?? here.host;
    const publicHost = this.publicUrl ? new URL(this.publicUrl).host : undefined;
    if (url.host !== host && url.host !== here.host && url.host !== publicHost) return undefined;
    const base = baseOf ? baseOf(url.pathname) : this.view.base;
    const path = base === undefined ? undefined : davPathOf(url.pathname, base);
    if (path === undefined) throw AppError.forbidden(`the destination is outside ${base ?? this.view.base}`);
    return path;
  }

  /** The If header's lists (RFC 4918 §10.4), or undefined without one. */
  ifLists(): IfList[] | undefined {
    const header = this.header('if');
    return header ? parseIf(header, (url) => this.pathOfUrl(url)) : undefined;
  }

  depth(fallback: 'infinity' | '0' | '1'): 'infinity' | '0' | '1' {
    const depth = (this.header('depth') ?? fallback).trim().toLowerCase();
    if (depth !== '0' && depth !== '1' && depth !== 'infinity') {
      throw AppError.validation('Depth must be 0, 1 or infinity');
    }
    return depth;
  }

  xml(body: string, status: number): Response {
    return xmlResponse(this.c, body, status);
  }

  empty(status: number): Response {
    return this.c.body(null, status as 200);
  }
}

export function xmlResponse(c: Ctx, body: string, status: number): Response {
  c.header('Content-Type', XML_TYPE);
  return c.body(body, status as 200);
}
