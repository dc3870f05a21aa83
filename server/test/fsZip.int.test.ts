import { closeSync, ftruncateSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { Permission } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver, type S3rverHandle } from './support/fileShares.js';
import { mountBoth, putFile } from './support/fsTree.js';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { createPathKey, mountedLocalRoot } from './support/mounts.js';
import { testBytes } from './support/uploads.js';
import { scanZipStream, unzipAll } from './support/zipReader.js';

const GiB = 1024 ** 3;

describe.each(dbTargets)('zip downloads on %s', (target) => {
  let s3: S3rverHandle;
  let server: TestServer;
  let token: string;
  const files: Record<string, Uint8Array> = {
    '/local/docs/readme.txt': new TextEncoder().encode('read me'),
    '/local/docs/报告/数据.csv': testBytes(300_000, 3),
    '/local/docs/empty.txt': new Uint8Array(0),
    '/local/same.txt': new TextEncoder().encode('local copy'),
    '/s3/pics/photo.jpg': testBytes(2 * 1024 * 1024 + 17, 5),
    '/s3/same.txt': new TextEncoder().encode('s3 copy'),
    '/s3/team/secret.txt': new TextEncoder().encode('team'),
  };

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
    await mountBoth(server, token, s3);
    for (const [p, bytes] of Object.entries(files)) await putFile(server, p, bytes);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const zip = (body: unknown, auth: Record<string, string> = { authorization: `Bearer ${token}` }) =>
    fetch(`${server.url}/api/fs/zip`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify(body),
    });

  it('streams files and folders from both mounts, byte for byte, with an exact Content-Length', async () => {
    const res = await zip({
      paths: ['/local/docs', '/s3/pics/photo.jpg', '/local/same.txt', '/s3/same.txt'],
      name: '篮子',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('篮子.zip')}`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(body.byteLength);
    const entries = await unzipAll(body);
    expect([...entries.keys()].sort()).toEqual(
      [
        'docs/',
        'docs/empty.txt',
        'docs/readme.txt',
        'docs/报告/',
        'docs/报告/数据.csv',
        'photo.jpg',
        'same (2).txt',
        'same.txt',
      ].sort(),
    );
    const expected: Record<string, Uint8Array> = {
      'docs/readme.txt': files['/local/docs/readme.txt'] as Uint8Array,
      'docs/报告/数据.csv': files['/local/docs/报告/数据.csv'] as Uint8Array,
      'docs/empty.txt': new Uint8Array(0),
      'photo.jpg': files['/s3/pics/photo.jpg'] as Uint8Array,
      'same.txt': files['/local/same.txt'] as Uint8Array,
      'same (2).txt': files['/s3/same.txt'] as Uint8Array,
    };
    for (const [name, bytes] of Object.entries(expected))
      expect(entries.get(name)?.equals(Buffer.from(bytes)), name).toBe(true);
  });

  it('hands out a short-lived link a browser can download natively', async () => {
    const res = await server.call<{ url: string; expires_at: string }>('POST', '/api/fs/zip/link', {
      token,
      body: { paths: ['/s3/same.txt'] },
    });
    expect(res.status).toBe(200);
    const link = res.body.data?.url as string;
    expect(link).toMatch(/^\/api\/fs\/zip\/[\w-]{20,}$/);
    const download = await fetch(server.url + link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('same.txt.zip');
    const entries = await unzipAll(Buffer.from(await download.arrayBuffer()));
    expect(entries.get('same.txt')?.toString()).toBe('s3 copy');
    server.clock.advance(6 * 60_000);
    const expired = await fetch(server.url + link);
    expect(expired.status).toBe(410);
    expect((await fetch(`${server.url}/api/fs/zip/not-a-token`)).status).toBe(410);
  });

  it('refuses bad paths and paths outside a key before sending a byte', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      [{ paths: [] }, 400, /paths is empty/],
      [{ paths: ['/local/../etc/passwd'] }, 400, /paths\.0/],
      [{ paths: ['/local/docs', '/s3/%2e%2e/x'] }, 400, /paths\.1/],
      [{ paths: ['/local/missing.txt'] }, 404, /./],
      [{ paths: ['/elsewhere/x'] }, 404, /no mount/],
      [{ paths: ['/s3/same.txt'], name: 'x'.repeat(201) }, 400, /name/],
    ];
    for (const [body, status, message] of cases) {
      const res = await zip(body);
      expect(res.headers.get('content-type')).toContain('application/json');
      const envelope = (await res.json()) as { code: number; message: string; success: boolean };
      expectEnvelope(envelope, status);
      expect(envelope.message).toMatch(message);
    }
    const team = await createPathKey(server, token, Permission.MOUNT_VIEW, '/s3/team');
    const outside = await zip({ paths: ['/s3/team/secret.txt', '/s3/same.txt'] }, { authorization: `ApiKey ${team}` });
    expect(outside.status).toBe(403);
    const inside = await zip({ paths: ['/s3/team'] }, { authorization: `ApiKey ${team}` });
    expect([...(await unzipAll(Buffer.from(await inside.arrayBuffer()))).keys()]).toEqual(['team/', 'team/secret.txt']);
    const noView = await createPathKey(server, token, Permission.MOUNT_UPLOAD);
    expect((await zip({ paths: ['/s3/same.txt'] }, { authorization: `ApiKey ${noView}` })).status).toBe(403);
  });

  it.runIf(target === 'sqlite')(
    'writes Zip64 for an entry over 4 GiB (sparse, local) with the right size and CRC, without storing the zip',
    async () => {
      const size = 4 * GiB + 1024 * 1024 + 3;
      const file = path.join(mountedLocalRoot(server), 'big.bin');
      const fd = openSync(file, 'w');
      ftruncateSync(fd, size);
      writeSync(fd, Buffer.from('head'), 0, 4, 0);
      writeSync(fd, Buffer.from('tail'), 0, 4, size - 4);
      closeSync(fd);
      try {
        let expectedCrc = crc32('head');
        const zeros = Buffer.alloc(16 * 1024 * 1024);
        for (let left = size - 8; left > 0; left -= zeros.byteLength)
          expectedCrc = crc32(zeros.subarray(0, Math.min(left, zeros.byteLength)), expectedCrc);
        expectedCrc = crc32('tail', expectedCrc);

        const res = await zip({ paths: ['/local/big.bin', '/s3/same.txt'] });
        expect(res.status).toBe(200);
        const length = Number(res.headers.get('content-length'));
        const scan = await scanZipStream(res.body as ReadableStream<Uint8Array>, size, length);
        expect(scan.total).toBe(length);
        expect(scan.zip64).toBe(true);
        expect(scan.entries.map((e) => e.name)).toEqual(['big.bin', 'same.txt']);
        expect(scan.entries[0]).toMatchObject({ size, compressedSize: size, method: 0, crc: expectedCrc });
        expect(scan.firstCrc).toBe(expectedCrc);
        expect(scan.entries[1]).toMatchObject({ size: 7, crc: crc32('s3 copy') });
        expect(scan.entries[1]?.localOffset).toBeGreaterThan(4 * GiB);
      } finally {
        rmSync(file, { force: true });
      }
    },
    900_000,
  );
});
