// Presigned PUT URLs sign Content-Length and Content-Type (issue 16, point 3). The emulators here check
// no presigned signature (s3rver never; moto 5.2 checks only the Authorization header, not query
// signatures), so the URL is verified the way S3 does: SigV4 recomputed over the request a client sends.
import { afterAll, describe, expect, it } from 'vitest';
import { s3WouldAccept } from '../../../test/support/sigv4.js';
import { S3Driver } from './driver.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const s3Accepts = (url: string, sent: Record<string, string>) => s3WouldAccept(url, sent, credentials);

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
