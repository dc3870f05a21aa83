// SSRF, second pass (server/test/ssrf.int.test.ts has the first): IPv4 spellings (decimal, octal, hex,
// short), DNS rebinding between check and connect, redirects into private ranges, and the storage-config
// endpoint and its test (loopback/LAN allowed for MinIO; metadata and link-local refused, at save time
// for literals and at every connection for names).
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { SsrfGuard } from '../../src/net/ssrfGuard.js';
import { guardedStorageLookup } from '../../src/net/storageEndpointGuard.js';
import { createS3Config, countFiles, startS3rver, type S3rverHandle } from '../support/fileShares.js';
import { dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { startRemoteFiles, type RemoteFileServer } from '../support/remoteFiles.js';

describe.each(dbTargets)('SSRF (security suite) on %s', (target) => {
  let server: TestServer;
  let token: string;
  let remote: RemoteFileServer;
  let s3: S3rverHandle;
  let hits = 0;

  beforeAll(async () => {
    remote = await startRemoteFiles({ 'a.txt': { body: new TextEncoder().encode('secret'), type: 'text/plain' } });
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await remote?.close();
    await s3?.close();
  });

  it('refuses every spelling of loopback, private, link-local and metadata addresses in URL uploads', async () => {
    const p = remote.port;
    const spellings = [
      `http://2130706433:${p}/files/a.txt`, // 127.0.0.1 decimal
      `http://0177.0.0.1:${p}/files/a.txt`, // octal
      `http://0x7f.0.0.1:${p}/files/a.txt`, // hex
      `http://0x7f000001:${p}/files/a.txt`,
      `http://127.1:${p}/files/a.txt`, // short
      `http://127.0.1:${p}/files/a.txt`,
      `http://0:${p}/files/a.txt`,
      `http://[::]:${p}/files/a.txt`,
      `http://[0:0:0:0:0:ffff:7f00:1]:${p}/files/a.txt`,
      'http://2852039166/latest/meta-data/', // 169.254.169.254 decimal
      'http://0xa9fea9fe/latest/meta-data/',
      'http://0251.0376.0251.0376/latest/meta-data/',
      'http://169.254.169.254.:80/latest/meta-data/',
      'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
      'http://100.100.100.200/latest/meta-data/',
      'http://[fe80::1]/x',
      'http://10.1/x',
      'http://0xc0.0xa8.0.1/x',
      'http://172.16.0.1/x',
      'http://LOCALHOST:' + p + '/files/a.txt',
      'http://localhost.:' + p + '/files/a.txt',
      `http://[::1]:${p}/files/a.txt`,
    ];
    const before = await countFiles(server);
    let tried = 0;
    for (const url of spellings) {
      for (const [method, path, body] of [
        ['POST', '/api/url/info', { url }],
        ['POST', '/api/url/fetch', { url }],
      ] as const) {
        tried++;
        const res = await server.call(method, path, { token, body });
        expect(res.status, `${path} ${url}: ${res.body.message}`).toBe(400);
        expect(res.body.message, url).toMatch(/URL refused|could not fetch/);
      }
      tried++;
      const proxy = await fetch(`${server.url}/api/url/proxy?url=${encodeURIComponent(url)}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(proxy.status, url).toBe(400);
      await proxy.arrayBuffer();
    }
    expect(await countFiles(server)).toBe(before);
    console.info(`[security] SSRF spellings on ${target}: ${tried} cases tried, ${tried} passed`);
  });

  it('connects to the address it checked: a DNS answer that changes (rebinding) is never used', async () => {
    const { createServer } = await import('node:http');
    const loopback = createServer((_req, res) => {
      hits++;
      res.end('internal');
    });
    await new Promise<void>((r) => loopback.listen(0, '127.0.0.1', () => r()));
    const port = (loopback.address() as { port: number }).port;
    let calls = 0;
    // First answer public (passes the check), every later one loopback (what a rebinding server does).
    const guard = new SsrfGuard({
      allowPrivate: false,
      resolve: async () =>
        calls++ === 0 ? [{ address: '192.0.2.10', family: 4 }] : [{ address: '127.0.0.1', family: 4 }],
      timeoutMs: 1500,
    });
    const result = await guard.request(`http://rebind.test:${port}/`).catch((e: unknown) => e);
    // 192.0.2.10 (TEST-NET) is unreachable: the request fails, and the loopback server saw nothing.
    expect(result).toBeInstanceOf(AppError);
    expect(calls).toBe(1);
    expect(hits).toBe(0);
    // A redirect from a checked host into loopback is refused at the hop.
    const hop = new SsrfGuard({
      allowPrivate: false,
      resolve: async (host) => (host === 'allowed.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
      allow: (host) => host === 'allowed.test',
    });
    for (const to of [`http://127.1:${port}/`, `http://2130706433:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`]) {
      const err = await hop
        .request(`http://allowed.test:${remote.port}/redirect?to=${encodeURIComponent(to)}`)
        .catch((e: unknown) => e);
      expect((err as AppError).message, to).toMatch(/URL refused/);
    }
    expect(hits).toBe(0);
    await new Promise<void>((r) => loopback.close(() => r()));
  });

  it('storage endpoints: LAN and loopback allowed (MinIO), metadata and link-local refused in every spelling', async () => {
    const bad = [
      'http://169.254.169.254',
      'http://2852039166',
      'http://0xa9.0xfe.0xa9.0xfe',
      'http://169.254.1.1:9000',
      'http://[fe80::1]:9000',
      'http://[::ffff:169.254.169.254]',
      'http://[fd00:ec2::254]',
      'http://100.100.100.200',
    ];
    let tried = 0;
    for (const endpoint of bad) {
      tried++;
      const res = await server.call('POST', '/api/s3-configs', {
        token,
        body: {
          name: `meta ${tried}`,
          provider: 'other',
          endpoint,
          bucket: 'b',
          region: 'us-east-1',
          access_key_id: 'k',
          secret_access_key: 's',
          path_style: true,
        },
      });
      expect(res.status, endpoint).toBe(400);
      expect(res.body.message, endpoint).toMatch(/endpoint refused/);
    }
    // An existing config cannot be pointed there either.
    const good = await createS3Config(server, token, s3);
    tried++;
    const moved = await server.call('PUT', `/api/s3-configs/${good.id}`, {
      token,
      body: { endpoint: 'http://169.254.169.254' },
    });
    expect(moved.status).toBe(400);
    // Loopback (the emulator) is fine, and its test passes.
    const test = await server.call<{ success: boolean }>('POST', `/api/s3-configs/${good.id}/test`, { token });
    expect(test.status).toBe(200);
    expect(test.body.data?.success).toBe(true);
    console.info(`[security] SSRF storage endpoints on ${target}: ${tried + 1} cases tried, ${tried + 1} passed`);
  });

  it("the storage client's resolver refuses names resolving to metadata or link-local addresses", async () => {
    const answers: Record<string, LookupAddress[]> = {
      'meta.test': [{ address: '169.254.169.254', family: 4 }],
      'mixed.test': [
        { address: '192.0.2.1', family: 4 },
        { address: 'fe80::1', family: 6 },
      ],
      'minio.lan': [{ address: '192.168.1.20', family: 4 }],
      'local.test': [{ address: '127.0.0.1', family: 4 }],
    };
    const lookup = guardedStorageLookup((host, _opts, cb) => cb(null, answers[host] ?? []));
    const run = (host: string, all: boolean) =>
      new Promise<{ error: Error | null; address: unknown }>((resolve) =>
        lookup(host, { all }, (error, address) => resolve({ error, address })),
      );
    for (const all of [false, true]) {
      expect((await run('meta.test', all)).error?.message).toMatch(
        /storage endpoint refused: meta\.test resolves to a cloud metadata address/,
      );
      expect((await run('mixed.test', all)).error?.message).toMatch(/link-local/);
      expect((await run('minio.lan', all)).error).toBeNull();
      expect((await run('local.test', all)).error).toBeNull();
    }
    expect((await run('minio.lan', false)).address).toBe('192.168.1.20');
  });
});
