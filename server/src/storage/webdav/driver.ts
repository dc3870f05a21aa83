// WebDAV driver (Apache mod_dav, Nextcloud/ownCloud, nginx-dav, NAS boxes, rclone serve webdav) on node:http(s).
//
// - The root is the endpoint URL's collection; driver paths are encoded segment by segment below it, and
//   names coming back in listings are checked to lie directly in the folder listed (propfind.ts).
// - Writes stream into a hidden temp file next to the target (`.clipnest-upload-*`) and MOVE it over the
//   target when complete: a failed, oversize or aborted write leaves nothing, and readers never see half a file.
// - copy = COPY (server-side, Depth infinity); move = MOVE; recursive remove = one DELETE of the collection.
// - No presign: the vfs proxies downloads. Multipart uploads are staged as hidden part files (multipart.ts).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { assertNormalized, baseName, isWithin, parentPath, RESERVED_PREFIX } from '../paths.js';
import { ByteMeter, nodeFromBody, resolveRange, sliceNode, webFromNode } from '../streams.js';
import { ListingSnapshots } from '../pageByName.js';
import {
  StorageError,
  type Entry,
  type ListPage,
  type ListResult,
  type MultipartCapability,
  type ReadOptions,
  type ReadResult,
  type StorageDriver,
  type StorageErrorCode,
  type StorageSpace,
  type WriteBody,
  type WriteOptions,
} from '../types.js';
import { DavHttp, mapNetworkError } from './http.js';
import { WebDavMultipart } from './multipart.js';
import {
  childName,
  readMultistatus,
  parseQuota,
  PROPFIND_BODY,
  QUOTA_PROPFIND_BODY,
  type DavItem,
} from './propfind.js';

export interface WebDavDriverOptions {
  /** The collection that is the driver's root, e.g. https://nas.local/dav/ */
  endpoint: string;
  username?: string;
  password?: string;
  /** Accept self-signed certificates. */
  tlsInsecure?: boolean;
  lookup?: LookupFunction;
  /** Connect / response timeout (default 10 s). */
  timeoutMs?: number;
}

/** The driver's own temp files (writes in progress): never a user's path. */
const TEMP_NAME = new RegExp(`^${RESERVED_PREFIX.replace('.', '\\.')}upload-[0-9a-f]{16}$`);

/** A StorageError for an HTTP status; `overrides` give a status another meaning for one call. */
function statusError(
  status: number,
  path: string,
  overrides: Partial<Record<number, StorageErrorCode>> = {},
): StorageError {
  const code: StorageErrorCode =
    overrides[status] ??
    (status === 401 || status === 403
      ? 'denied'
      : status === 404 || status === 409 || status === 400
        ? 'not_found' // Apache answers 400 to a path that goes on below a file
        : status === 412
          ? 'exists'
          : status === 416
            ? 'range'
            : status === 423
              ? 'locked'
              : status === 507
                ? 'quota'
                : status === 405 || status === 501
                  ? 'unsupported'
                  : status >= 500
                    ? 'unavailable'
                    : 'io');
  return new StorageError(code, `webdav server answered ${status}`, { path });
}

function ok(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

export class WebDavDriver implements StorageDriver {
  /** The following pages of a listing come from its first page's answer (pageByName.ts). */
  private readonly snapshots = new ListingSnapshots();
  readonly kind = 'webdav';
  readonly http: DavHttp;
  readonly multipart: MultipartCapability;
  /** The root collection's decoded URL path, ending in '/'. */
  private readonly rootPath: string;

  constructor(options: WebDavDriverOptions) {
    this.http = new DavHttp(options);
    this.rootPath = decodeURIComponent(this.http.base.pathname);
    this.multipart = new WebDavMultipart(this);
  }

  /** The encoded URL path (relative to the root) of a driver path; collections end in '/'. */
  private href(path: string, collection = false): string {
    if (TEMP_NAME.test(baseName(path))) assertNormalized(parentPath(path));
    else assertNormalized(path);
    if (path === '') return '';
    const encoded = path
      .split('/')
      .map((s) => encodeURIComponent(s))
      .join('/');
    return collection ? `${encoded}/` : encoded;
  }

  private async call(
    method: string,
    path: string,
    init: {
      collection?: boolean;
      headers?: Record<string, string>;
      body?: string;
      signal?: AbortSignal;
      hrefOverride?: string;
    } = {},
  ): Promise<IncomingMessage> {
    try {
      return await this.http.request({
        method,
        path: init.hrefOverride ?? this.href(path, init.collection),
        headers: init.headers,
        body: init.body,
        signal: init.signal,
      });
    } catch (err) {
      throw mapNetworkError(err, path);
    }
  }

  private async propfind(path: string, depth: 0 | 1, signal?: AbortSignal): Promise<DavItem[]> {
    const res = await this.call('PROPFIND', path, {
      collection: depth === 1,
      headers: { depth: String(depth), 'content-type': 'application/xml; charset=utf-8' },
      body: PROPFIND_BODY,
      signal,
    });
    if (res.statusCode !== 207) {
      this.http.drain(res);
      throw statusError(res.statusCode ?? 0, path);
    }
    try {
      return await readMultistatus(res);
    } catch (err) {
      throw mapNetworkError(err, path);
    }
  }

  private entryOf(path: string, item: DavItem): Entry {
    return {
      path,
      name: baseName(path),
      isDir: path === '' ? true : item.isDir,
      size: item.isDir ? 0 : item.size,
      ...(item.lastModified ? { lastModified: item.lastModified } : {}),
      ...(item.etag ? { etag: item.etag } : {}),
      ...(item.contentType ? { contentType: item.contentType } : {}),
    };
  }

  /** The item of `path` itself in a Depth 0 answer. */
  private self(path: string, items: DavItem[]): DavItem {
    const want = `${this.rootPath}${path}`.replace(/\/+$/, '');
    const item = items.find((i) => i.hrefPath.replace(/\/+$/, '') === want) ?? items[0];
    if (!item) throw new StorageError('not_found', 'not found', { path });
    return item;
  }

  async stat(path: string, signal?: AbortSignal): Promise<Entry> {
    const items = await this.propfind(path, 0, signal);
    return this.entryOf(path, this.self(path, items));
  }

  private async statOrNull(path: string): Promise<Entry | null> {
    try {
      return await this.stat(path);
    } catch (err) {
      if (err instanceof StorageError && err.code === 'not_found') return null;
      throw err;
    }
  }

  async list(dir: string, page: ListPage = {}): Promise<ListResult> {
    return this.snapshots.page(dir, page, () => this.listWhole(dir));
  }

  private async listWhole(dir: string): Promise<Entry[]> {
    let items: DavItem[];
    try {
      items = await this.propfind(dir, 1);
    } catch (err) {
      // A file asked for as a collection: Apache answers 400.
      if (err instanceof StorageError && err.code === 'not_found' && dir !== '' && !(await this.stat(dir)).isDir) {
        throw new StorageError('not_a_directory', 'not a directory', { path: dir });
      }
      throw err;
    }
    const dirHref = `${this.rootPath}${dir}`;
    const self = items.find((i) => i.hrefPath.replace(/\/+$/, '') === dirHref.replace(/\/+$/, ''));
    if (self && !self.isDir && dir !== '') throw new StorageError('not_a_directory', 'not a directory', { path: dir });
    const entries: Entry[] = [];
    for (const item of items) {
      const name = childName(dirHref, item);
      if (name === undefined || Buffer.byteLength(name) > 255) continue;
      entries.push(this.entryOf(dir === '' ? name : `${dir}/${name}`, item));
    }
    return entries;
  }

  async read(path: string, opts: ReadOptions = {}): Promise<ReadResult> {
    if (path === '') throw new StorageError('is_a_directory', 'is a directory', { path });
    const entry = await this.stat(path, opts.signal);
    if (entry.isDir) throw new StorageError('is_a_directory', 'is a directory', { path });
    const wanted = opts.range ? resolveRange(opts.range, entry.size, path) : undefined;
    const res = await this.call('GET', path, {
      ...(wanted ? { headers: { range: `bytes=${wanted.start}-${wanted.end}` } } : {}),
      signal: opts.signal,
    });
    if (!ok(res.statusCode)) {
      this.http.drain(res);
      throw statusError(res.statusCode ?? 0, path);
    }
    let body: Readable = res;
    let contentLength = Number(res.headers['content-length'] ?? entry.size);
    let size = entry.size;
    if (wanted) {
      const m = /bytes (\d+)-(\d+)\/(\d+|\*)/.exec(String(res.headers['content-range'] ?? ''));
      if (res.statusCode === 206 && m) {
        if (m[3] !== '*') size = Number(m[3]);
        // A server that sent another range than asked: keep exactly the bytes wanted.
        const sentStart = Number(m[1]);
        if (sentStart !== wanted.start || Number(m[2]) !== wanted.end) {
          body = sliceNode(res, wanted.start - sentStart, wanted.end - wanted.start + 1);
        }
      } else {
        body = sliceNode(res, wanted.start, wanted.end - wanted.start + 1);
      }
      contentLength = wanted.end - wanted.start + 1;
    }
    return {
      stream: webFromNode(body, (err) => mapNetworkError(err, path)),
      size,
      contentLength,
      ...(wanted ? { range: wanted } : {}),
      ...(entry.etag ? { etag: entry.etag } : {}),
      ...(entry.lastModified ? { lastModified: entry.lastModified } : {}),
      ...(entry.contentType ? { contentType: entry.contentType } : {}),
    };
  }

  async write(path: string, body: WriteBody, opts: WriteOptions = {}): Promise<Entry> {
    assertNormalized(path);
    const source = nodeFromBody(body);
    try {
      if (path === '') throw new StorageError('invalid_path', 'cannot write the root', { path });
      if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path });
      const existing = await this.statOrNull(path);
      if (existing?.isDir) throw new StorageError('is_a_directory', 'is a directory', { path });
      if (existing && opts.overwrite === false) throw new StorageError('exists', 'exists', { path });
      const parent = parentPath(path);
      await this.mkdir(parent);
      const temp = `${parent === '' ? '' : `${parent}/`}${RESERVED_PREFIX}upload-${randomBytes(8).toString('hex')}`;
      try {
        await this.putStream(temp, source, opts);
        await this.relocate('MOVE', temp, path, opts.overwrite !== false);
      } catch (err) {
        await this.deleteQuietly(temp);
        throw err;
      }
      return await this.stat(path);
    } catch (err) {
      source.on('error', () => undefined);
      source.destroy();
      throw err instanceof StorageError ? err : mapNetworkError(err, path);
    }
  }

  private async putStream(temp: string, source: Readable, opts: WriteOptions): Promise<void> {
    const meter = new ByteMeter({ size: opts.size, maxBytes: opts.maxBytes, path: temp });
    let streamError: unknown;
    pipeline(source, meter, (err) => {
      if (err) streamError = err;
    });
    const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/octet-stream' };
    if (opts.size !== undefined) headers['content-length'] = String(opts.size);
    let res: IncomingMessage;
    try {
      res = await this.http.request({
        method: 'PUT',
        path: this.href(temp),
        headers,
        body: meter,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    } catch (err) {
      if (streamError instanceof StorageError) throw streamError;
      if (opts.signal?.aborted) throw new StorageError('aborted', 'aborted', { path: temp, cause: err });
      throw mapNetworkError(streamError ?? err, temp);
    }
    this.http.drain(res);
    if (streamError) throw streamError instanceof StorageError ? streamError : mapNetworkError(streamError, temp);
    if (!ok(res.statusCode)) throw statusError(res.statusCode ?? 0, temp, { 409: 'not_found' });
  }

  private async deleteQuietly(path: string): Promise<void> {
    try {
      const res = await this.call('DELETE', path);
      this.http.drain(res);
    } catch {
      // best effort: a hidden temp file is never listed
    }
  }

  async mkdir(path: string): Promise<void> {
    assertNormalized(path);
    if (path === '') return;
    const res = await this.call('MKCOL', path, { collection: true });
    this.http.drain(res);
    if (res.statusCode === 201) return;
    if (res.statusCode === 405 || res.statusCode === 400) {
      // Something exists there already: fine when it is a directory.
      const entry = await this.stat(path);
      if (!entry.isDir) throw new StorageError('exists', 'a file has this name', { path });
      return;
    }
    if (res.statusCode === 409) {
      // Missing parents: make them one level at a time.
      await this.mkdir(parentPath(path));
      const again = await this.call('MKCOL', path, { collection: true });
      this.http.drain(again);
      if (again.statusCode === 201 || again.statusCode === 405) return;
      throw statusError(again.statusCode ?? 0, path, { 409: 'exists' });
    }
    throw statusError(res.statusCode ?? 0, path);
  }

  async remove(path: string, opts: { recursive?: boolean } = {}): Promise<void> {
    assertNormalized(path);
    if (path === '') throw new StorageError('invalid_path', 'cannot remove the root', { path });
    const entry = await this.stat(path);
    if (entry.isDir && !opts.recursive) {
      const items = await this.propfind(path, 1);
      if (
        items.some((i) => childName(`${this.rootPath}${path}`, i) !== undefined || i.hrefPath.includes(RESERVED_PREFIX))
      ) {
        throw new StorageError('not_empty', 'directory not empty', { path });
      }
    }
    const res = await this.call('DELETE', path, { collection: entry.isDir });
    this.http.drain(res);
    if (!ok(res.statusCode)) throw statusError(res.statusCode ?? 0, path);
  }

  /** MOVE or COPY with the Overwrite header; a target that exists and may not be replaced → 'exists'. */
  private async relocate(method: 'MOVE' | 'COPY', from: string, to: string, overwrite: boolean): Promise<void> {
    const source = await this.stat(from);
    const res = await this.call(method, from, {
      collection: source.isDir,
      headers: {
        destination: this.http.url(this.href(to, source.isDir)),
        overwrite: overwrite ? 'T' : 'F',
        ...(method === 'COPY' ? { depth: 'infinity' } : {}),
      },
    });
    this.http.drain(res);
    if (!ok(res.statusCode)) throw statusError(res.statusCode ?? 0, from, { 412: 'exists' });
  }

  private async checkPair(from: string, to: string): Promise<void> {
    assertNormalized(from);
    assertNormalized(to);
    if (from === '' || to === '')
      throw new StorageError('invalid_path', 'cannot move or copy the root', { path: from });
    if (to !== from && isWithin(to, from)) {
      throw new StorageError('invalid_path', 'cannot move or copy a folder into itself', { path: to });
    }
  }

  async move(from: string, to: string, opts: { overwrite?: boolean } = {}): Promise<void> {
    await this.checkPair(from, to);
    if (from === to) {
      await this.stat(from);
      return;
    }
    await this.stat(from);
    const target = await this.statOrNull(to);
    if (target && !opts.overwrite) throw new StorageError('exists', 'exists', { path: to });
    await this.mkdir(parentPath(to));
    await this.relocate('MOVE', from, to, opts.overwrite === true);
  }

  async copy(from: string, to: string, opts: { overwrite?: boolean } = {}): Promise<void> {
    await this.checkPair(from, to);
    if (from === to) throw new StorageError('exists', 'exists', { path: to });
    await this.stat(from);
    const target = await this.statOrNull(to);
    if (target && !opts.overwrite) throw new StorageError('exists', 'exists', { path: to });
    await this.mkdir(parentPath(to));
    await this.relocate('COPY', from, to, opts.overwrite === true);
  }

  /** RFC 4331 quota of the root collection; 'unsupported' when the server does not tell (Apache mod_dav_fs). */
  async space(): Promise<StorageSpace> {
    const res = await this.call('PROPFIND', '', {
      collection: true,
      headers: { depth: '0', 'content-type': 'application/xml; charset=utf-8' },
      body: QUOTA_PROPFIND_BODY,
    });
    if (res.statusCode !== 207) {
      this.http.drain(res);
      throw statusError(res.statusCode ?? 0, '');
    }
    const quota = parseQuota(await this.http.text(res));
    if (!quota) throw new StorageError('unsupported', 'the WebDAV server does not tell its quota (RFC 4331)');
    return {
      totalBytes: quota.usedBytes + quota.availableBytes,
      usedBytes: quota.usedBytes,
      freeBytes: quota.availableBytes,
      volume: `${this.http.base.origin}${this.rootPath}`,
    };
  }

  async close(): Promise<void> {
    this.snapshots.clear();
    this.http.close();
  }
}
