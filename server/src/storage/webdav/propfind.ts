// PROPFIND answers (207 multistatus) as entries. Each response's href is decoded and checked against the
// collection asked for: a name that is absolute, has `..`, a slash or lies elsewhere is dropped, so a server
// can never make the driver address something outside its root.
import { SaxesParser } from 'saxes';
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

/** What one `<response>` said: its href and the properties of its 200 propstats (text, or '' for an element). */
interface RawResponse {
  href: string;
  props: Map<string, string>;
  collection: boolean;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
/** The properties read from a 200 propstat; anything else in a prop is skipped. */
const WANTED = new Set([
  'getcontentlength',
  'getlastmodified',
  'getetag',
  'getcontenttype',
  'quota-used-bytes',
  'quota-available-bytes',
]);

/**
 * A streaming multistatus reader (saxes): fed the body as it arrives, it keeps only what the driver needs, so a
 * big answer is read in one pass, mostly while it still arrives, with no document tree of it built.
 * Namespace prefixes are ignored, as every DAV server puts these elements in DAV: anyway.
 */
export class MultistatusReader {
  private readonly parser = new SaxesParser({ position: false });
  private readonly decoder = new TextDecoder('utf-8');
  private readonly responses: RawResponse[] = [];
  /** Local names of the open elements. */
  private readonly stack: string[] = [];
  private response: RawResponse | undefined;
  private propstat: { status: string; props: Map<string, string>; collection: boolean } | undefined;
  private text = '';

  constructor() {
    this.parser.on('opentag', (tag) => {
      const name = localName(tag.name);
      const parent = this.stack[this.stack.length - 1];
      this.stack.push(name);
      this.text = '';
      if (name === 'response' && parent === 'multistatus') {
        this.response = { href: '', props: new Map(), collection: false };
      } else if (name === 'propstat' && this.response && parent === 'response') {
        this.propstat = { status: '', props: new Map(), collection: false };
      } else if (name === 'collection' && this.propstat && parent === 'resourcetype') {
        this.propstat.collection = true;
      }
    });
    this.parser.on('text', (text) => (this.text += text));
    this.parser.on('cdata', (text) => (this.text += text));
    this.parser.on('closetag', () => {
      const name = this.stack.pop()!;
      const parent = this.stack[this.stack.length - 1];
      const response = this.response;
      const propstat = this.propstat;
      if (!response) return;
      if (name === 'href' && parent === 'response') response.href = this.text.trim();
      else if (propstat && name === 'status' && parent === 'propstat') propstat.status = this.text;
      else if (propstat && parent === 'prop' && WANTED.has(name)) propstat.props.set(name, this.text);
      else if (propstat && name === 'propstat') {
        if (/\s200\s/.test(` ${propstat.status} `)) {
          for (const [key, value] of propstat.props) response.props.set(key, value);
          if (propstat.collection) response.collection = true;
        }
        this.propstat = undefined;
      } else if (name === 'response') {
        this.responses.push(response);
        this.response = undefined;
      }
    });
  }

  write(chunk: Uint8Array | string): void {
    this.parser.write(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
  }

  /** Ends the document (a malformed one throws) and hands over what its responses said. */
  close(): RawResponse[] {
    this.parser.write(this.decoder.decode());
    this.parser.close();
    return this.responses;
  }
}

/** Reads a multistatus body as it streams in. */
export async function readMultistatus(body: AsyncIterable<Uint8Array>): Promise<DavItem[]> {
  const reader = new MultistatusReader();
  for await (const chunk of body) reader.write(chunk);
  return itemsOf(reader.close());
}

function decodeHref(href: string): string | undefined {
  try {
    const path = /^https?:\/\//i.test(href) ? new URL(href).pathname : href;
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** A folder's entries share few distinct dates: each distinct one is parsed once per answer. */
function dateParser(): (text: string) => Date {
  const seen = new Map<string, number>();
  return (text) => {
    let time = seen.get(text);
    if (time === undefined) seen.set(text, (time = new Date(text).getTime()));
    return new Date(time);
  };
}

function itemsOf(responses: RawResponse[]): DavItem[] {
  const dateOf = dateParser();
  const out: DavItem[] = [];
  for (const { href, props, collection: isDir } of responses) {
    const hrefPath = decodeHref(href);
    if (hrefPath === undefined) continue;
    const size = Number(props.get('getcontentlength') || 0);
    const modified = props.get('getlastmodified');
    const date = modified ? dateOf(modified) : undefined;
    const etag = props.get('getetag')?.replace(/^W\//, '');
    const contentType = props.get('getcontenttype');
    out.push({
      hrefPath,
      isDir,
      size: Number.isFinite(size) && size >= 0 ? size : 0,
      ...(date && !Number.isNaN(date.getTime()) ? { lastModified: date } : {}),
      ...(etag && !isDir ? { etag: etag.startsWith('"') ? etag : `"${etag}"` } : {}),
      ...(contentType && !isDir ? { contentType } : {}),
    });
  }
  return out;
}

/** Parses a multistatus body into items (only the propstats answered 200). */
export function parseMultistatus(xml: string): DavItem[] {
  const reader = new MultistatusReader();
  reader.write(xml);
  return itemsOf(reader.close());
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

/** The first response's RFC 4331 figures, or undefined when the server did not answer both (a 404 propstat) or not in XML. */
export function parseQuota(xml: string): { usedBytes: number; availableBytes: number } | undefined {
  let props: Map<string, string> | undefined;
  try {
    const reader = new MultistatusReader();
    reader.write(xml);
    props = reader.close()[0]?.props;
  } catch {
    return undefined; // not XML: as good as not telling
  }
  const figure = (value: string | undefined) => {
    const text = value?.trim();
    const n = text ? Number(text) : NaN;
    return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
  };
  const usedBytes = figure(props?.get('quota-used-bytes'));
  const availableBytes = figure(props?.get('quota-available-bytes'));
  return usedBytes === undefined || availableBytes === undefined ? undefined : { usedBytes, availableBytes };
}
