// Multipart uploads for WebDAV, which has none of its own: each part is a hidden file in a staging folder
// (`.clipnest-multipart/<uploadId>/<partNumber>`, never listed) and complete streams the parts in order into the
// target through the driver's write (temp file + MOVE), then drops the folder. Parts go through the server.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import { RESERVED_PREFIX } from '../paths.js';
import { ByteMeter, nodeFromWeb } from '../streams.js';
import {
  StorageError,
  type Entry,
  type MultipartCapability,
  type MultipartStartOptions,
  type MultipartUploadInfo,
  type UploadedPart,
} from '../types.js';
import type { WebDavDriver } from './driver.js';
import { mapNetworkError } from './http.js';
import { parseMultistatus, PROPFIND_BODY } from './propfind.js';

const STAGING = `${RESERVED_PREFIX}multipart`;
const UPLOAD_ID = /^[0-9a-f]{32}$/;

interface UploadMeta {
  path: string;
  contentType?: string;
  overwrite: boolean;
  initiated: string;
}

export class WebDavMultipart implements MultipartCapability {
  readonly minPartSize = 1;
  readonly maxParts = 10_000;
  readonly presignedParts = false;

  constructor(private readonly driver: WebDavDriver) {}

  private async send(
    method: string,
    href: string,
    init: { headers?: Record<string, string>; body?: string | Readable } = {},
  ): Promise<IncomingMessage> {
    try {
      return await this.driver.http.request({ method, path: href, ...init });
    } catch (err) {
      throw mapNetworkError(err);
    }
  }

  private folder(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw new StorageError('not_found', 'no such upload');
    return `${STAGING}/${uploadId}/`;
  }

  private async meta(path: string, uploadId: string): Promise<UploadMeta> {
    const res = await this.send('GET', `${this.folder(uploadId)}meta`);
    if (res.statusCode === 404 || res.statusCode === 409) {
      this.driver.http.drain(res);
      throw new StorageError('not_found', 'no such upload', { path });
    }
    const text = await this.driver.http.text(res);
    if (res.statusCode !== 200) throw new StorageError('unavailable', `webdav server answered ${res.statusCode}`);
    const meta = JSON.parse(text) as UploadMeta;
    if (meta.path !== path) throw new StorageError('not_found', 'no such upload for this path', { path });
    return meta;
  }

  async start(path: string, opts: MultipartStartOptions = {}): Promise<{ uploadId: string }> {
    if (path === '') throw new StorageError('invalid_path', 'cannot write the root', { path });
    const existing = await this.driver.stat(path).catch((err: unknown) => {
      if (err instanceof StorageError && err.code === 'not_found') return null;
      throw err;
    });
    if (existing?.isDir) throw new StorageError('is_a_directory', 'is a directory', { path });
    if (existing && opts.overwrite === false) throw new StorageError('exists', 'exists', { path });
    const uploadId = randomBytes(16).toString('hex');
    for (const href of [`${STAGING}/`, this.folder(uploadId)]) {
      const res = await this.send('MKCOL', href);
      this.driver.http.drain(res);
      if (res.statusCode !== 201 && res.statusCode !== 405) {
        throw new StorageError('unavailable', `webdav server answered ${res.statusCode} to MKCOL`, { path });
      }
    }
    const meta: UploadMeta = {
      path,
      overwrite: opts.overwrite !== false,
      initiated: new Date().toISOString(),
      ...(opts.contentType ? { contentType: opts.contentType } : {}),
    };
    const res = await this.send('PUT', `${this.folder(uploadId)}meta`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(meta),
    });
    this.driver.http.drain(res);
    if ((res.statusCode ?? 0) >= 300) throw new StorageError('unavailable', `webdav server answered ${res.statusCode}`);
    return { uploadId };
  }

  async uploadPart(
    path: string,
    uploadId: string,
    partNumber: number,
    body: ReadableStream<Uint8Array>,
    opts: { size?: number; signal?: AbortSignal } = {},
  ): Promise<UploadedPart> {
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > this.maxParts) {
      throw new StorageError('invalid_part', `part number must be 1…${this.maxParts}`, { path });
    }
    await this.meta(path, uploadId);
    const meter = new ByteMeter({ size: opts.size, path });
    let streamError: unknown;
    pipeline(nodeFromWeb(body), meter, (err) => {
      if (err) streamError = err;
    });
    let res: IncomingMessage;
    try {
      res = await this.driver.http.request({
        method: 'PUT',
        path: `${this.folder(uploadId)}${partNumber}`,
        headers: {
          'content-type': 'application/octet-stream',
          ...(opts.size !== undefined ? { 'content-length': String(opts.size) } : {}),
        },
        body: meter,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    } catch (err) {
      throw streamError instanceof StorageError ? streamError : mapNetworkError(streamError ?? err, path);
    }
    this.driver.http.drain(res);
    if (streamError) throw streamError instanceof StorageError ? streamError : mapNetworkError(streamError, path);
    if ((res.statusCode ?? 0) >= 300) throw new StorageError('unavailable', `webdav server answered ${res.statusCode}`);
    const part = (await this.listParts(path, uploadId)).find((p) => p.partNumber === partNumber);
    if (!part) throw new StorageError('io', 'the part was not stored', { path });
    return part;
  }

  async listParts(path: string, uploadId: string): Promise<UploadedPart[]> {
    await this.meta(path, uploadId);
    const res = await this.send('PROPFIND', this.folder(uploadId), {
      headers: { depth: '1', 'content-type': 'application/xml; charset=utf-8' },
      body: PROPFIND_BODY,
    });
    const text = await this.driver.http.text(res);
    if (res.statusCode !== 207) throw new StorageError('unavailable', `webdav server answered ${res.statusCode}`);
    const parts: UploadedPart[] = [];
    for (const item of parseMultistatus(text)) {
      const name = item.hrefPath.replace(/\/+$/, '').split('/').pop() ?? '';
      if (item.isDir || !/^[1-9]\d{0,4}$/.test(name)) continue;
      parts.push({
        partNumber: Number(name),
        etag: item.etag ?? `"${item.size}"`,
        size: item.size,
        ...(item.lastModified ? { lastModified: item.lastModified } : {}),
      });
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async complete(path: string, uploadId: string, parts: Array<{ partNumber: number; etag: string }>): Promise<Entry> {
    const meta = await this.meta(path, uploadId);
    const stored = new Map((await this.listParts(path, uploadId)).map((p) => [p.partNumber, p]));
    if (parts.length === 0) throw new StorageError('invalid_part', 'no parts', { path });
    let previous = 0;
    for (const part of parts) {
      const have = stored.get(part.partNumber);
      if (part.partNumber <= previous || !have || have.etag !== part.etag) {
        throw new StorageError('invalid_part', `part ${part.partNumber} is missing, out of order or changed`, { path });
      }
      previous = part.partNumber;
    }
    const size = parts.reduce((sum, p) => sum + (stored.get(p.partNumber)?.size ?? 0), 0);
    const folder = this.folder(uploadId);
    const send = this.send.bind(this);
    async function* joined(): AsyncGenerator<Buffer> {
      for (const part of parts) {
        const res = await send('GET', `${folder}${part.partNumber}`);
        if (res.statusCode !== 200) {
          res.resume();
          throw new StorageError('invalid_part', `part ${part.partNumber} could not be read back`, { path });
        }
        for await (const chunk of res) yield chunk as Buffer;
      }
    }
    const entry = await this.driver.write(path, Readable.from(joined()), {
      size,
      overwrite: meta.overwrite,
      ...(meta.contentType ? { contentType: meta.contentType } : {}),
    });
    await this.drop(uploadId);
    return entry;
  }

  private async drop(uploadId: string): Promise<void> {
    const res = await this.send('DELETE', this.folder(uploadId));
    this.driver.http.drain(res);
  }

  async abort(path: string, uploadId: string): Promise<void> {
    await this.meta(path, uploadId);
    await this.drop(uploadId);
  }

  async listUploads(): Promise<MultipartUploadInfo[]> {
    const res = await this.send('PROPFIND', `${STAGING}/`, {
      headers: { depth: '1', 'content-type': 'application/xml; charset=utf-8' },
      body: PROPFIND_BODY,
    });
    const text = await this.driver.http.text(res);
    if (res.statusCode === 404) return [];
    if (res.statusCode !== 207) throw new StorageError('unavailable', `webdav server answered ${res.statusCode}`);
    const out: MultipartUploadInfo[] = [];
    for (const item of parseMultistatus(text)) {
      const id = item.hrefPath.replace(/\/+$/, '').split('/').pop() ?? '';
      if (!item.isDir || !UPLOAD_ID.test(id)) continue;
      const metaRes = await this.send('GET', `${this.folder(id)}meta`);
      const body = await this.driver.http.text(metaRes);
      if (metaRes.statusCode !== 200) continue;
      try {
        const meta = JSON.parse(body) as UploadMeta;
        out.push({ uploadId: id, path: meta.path, initiated: new Date(meta.initiated) });
      } catch {
        // a broken staging folder: left for the sweep of whoever made it
      }
    }
    return out;
  }
}
