import { createHash } from 'node:crypto';
import { Permission, type MultipartInitResult, type SignPartsResult } from '@clipnest/contract';
import { createApiKey } from './apiKeys.js';
import type { TestServer } from './harness.js';

export const MiB = 1024 * 1024;

/** Deterministic bytes (a counter pattern) so every part differs. */
export function testBytes(size: number, seed = 1): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed * 7 + (i >> 12)) & 0xff;
  return out;
}

export function md5Hex(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

/** A FILE_SHARE key (and its id) made by the admin. */
export async function fileShareKey(
  server: TestServer,
  token: string,
  name = 'uploader',
): Promise<{ key: string; id: string }> {
  const { key, id } = await createApiKey(server, token, {
    name: `${name}-${Math.random().toString(36).slice(2, 7)}`,
    permissions: Permission.FILE_SHARE,
  });
  return { key, id };
}

/** PUT of raw bytes, answering status and ETag. Relative URLs go to the test server (with auth). */
export async function putBytes(
  server: TestServer,
  url: string,
  bytes: Uint8Array,
  headers: Record<string, string> = {},
): Promise<{ status: number; etag: string | null; text: string }> {
  const absolute = url.startsWith('/') ? server.url + url : url;
  const res = await fetch(absolute, { method: 'PUT', body: bytes as Uint8Array<ArrayBuffer>, headers });
  return { status: res.status, etag: res.headers.get('etag'), text: await res.text() };
}

/** Sends parts the way the browser does: sign just before, PUT, report the ETag of presigned PUTs. */
export async function sendParts(
  server: TestServer,
  token: string,
  init: MultipartInitResult,
  bytes: Uint8Array,
  partNumbers: number[],
): Promise<Map<number, string>> {
  const etags = new Map<number, string>();
  for (const n of partNumbers) {
    const signed = await server.call<SignPartsResult>('POST', '/api/upload/multipart/sign-parts', {
      token,
      body: { file_id: init.file_id, part_numbers: [n] },
    });
    if (signed.status !== 200) throw new Error(`sign-parts ${signed.status} ${signed.body.message}`);
    const part = signed.body.data!.urls[0]!;
    const slice = bytes.subarray((n - 1) * init.part_size, Math.min(bytes.length, n * init.part_size));
    const put = await putBytes(server, part.url, slice, part.proxied ? { authorization: `Bearer ${token}` } : {});
    if (put.status !== 200 || !put.etag) throw new Error(`part ${n} PUT ${put.status} ${put.text.slice(0, 200)}`);
    etags.set(n, put.etag);
    if (!part.proxied) {
      const rec = await server.call('POST', '/api/upload/multipart/parts', {
        token,
        body: { file_id: init.file_id, part_number: n, etag: put.etag, size: slice.length },
      });
      if (rec.status !== 200) throw new Error(`record part ${n}: ${rec.status} ${rec.body.message}`);
    }
  }
  return etags;
}
