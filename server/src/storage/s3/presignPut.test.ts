// Presigned PUT URLs sign Content-Length and Content-Type (issue 16, point 3). The emulators here check
// no presigned signature (s3rver never; moto 5.2 checks only the Authorization header, not query
// signatures), so the URL is verified the way S3 does: SigV4 recomputed over the request a client sends.
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, describe, expect, it } from 'vitest';
import { S3Driver } from './s3Driver.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

/** true when S3 would accept a PUT of the URL carrying these headers (SigV4 query auth, recomputed). */
async function s3Accepts(url: string, sent: Record<string, string>): Promise<boolean> {
  const u = new URL(url);
  const q = Object.fromEntries(u.searchParams);
  const signedHeaders = (q['X-Amz-SignedHeaders'] ?? '').split(';');
  const headers: Record<string, string> = { host: u.host };
  for (const name of signedHeaders) {
    if (name === 'host') continue;
    const value = sent[name];
    if (value === undefined) return false; // a signed header the client did not send
    headers[name] = value;
  }
  const [, , region, service] = (q['X-Amz-Credential'] ?? '').split('/');
  const date = q['X-Amz-Date']!;
  const signingDate = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) if (!k.startsWith('X-Amz-')) query[k] = v;
  const signer = new SignatureV4({
    credentials,
    region: region!,
    service: service!,
    sha256: Sha256,
    uriEscapePath: false,
  });
  const request = new HttpRequest({
    method: 'PUT',
    protocol: u.protocol,
    hostname: u.hostname,
    port: u.port ? Number(u.port) : undefined,
    path: u.pathname,
    query,
    headers: { ...headers, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
  });
  const signed = await signer.presign(request, {
    signingDate,
    expiresIn: Number(q['X-Amz-Expires']),
    signingRegion: region,
    signingService: service,
  });
  return signed.query?.['X-Amz-Signature'] === q['X-Amz-Signature'];
}

describe('S3Driver.presign put', () => {
  const driver = new S3Driver({
    endpoint: 'http://127.0.0.1:9000',
    bucket: 'shares',
    ...credentials,
    forcePathStyle: true,
  });
  afterAll(() => driver.close());

  it('signs content-length and content-type: another length or type is refused', async () => {
    const url = await driver.presign('folder/ab12_report.pdf', 'put', 301, {
      contentType: 'application/pdf',
      contentLength: 10,
    });
    const q = new URL(url).searchParams;
    expect(q.get('X-Amz-SignedHeaders')?.split(';')).toEqual(['content-length', 'content-type', 'host']);
    expect(q.get('X-Amz-Expires')).toBe('301');
    // The verifier itself: the announced request passes.
    expect(await s3Accepts(url, { 'content-length': '10', 'content-type': 'application/pdf' })).toBe(true);
    // 3 MB of HTML through the same URL: refused on length, on type, and on both.
    expect(await s3Accepts(url, { 'content-length': '3145728', 'content-type': 'application/pdf' })).toBe(false);
    expect(await s3Accepts(url, { 'content-length': '10', 'content-type': 'text/html' })).toBe(false);
    expect(await s3Accepts(url, { 'content-length': '3145728', 'content-type': 'text/html' })).toBe(false);
    expect(await s3Accepts(url, { 'content-length': '10' })).toBe(false);
  });

  it('signs only host for GET URLs and for PUTs without a length or type', async () => {
    const get = await driver.presign('a.txt', 'get', 60, { contentType: 'text/plain' });
    expect(new URL(get).searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    const put = await driver.presign('a.txt', 'put', 60);
    expect(new URL(put).searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(await s3Accepts(put, { 'content-length': '999' })).toBe(true);
  });
});
