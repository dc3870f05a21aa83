// The SSRF guard of URL uploads, on (the default): loopback, private, link-local, metadata, IPv6
// forms embedding those (IPv4-compatible, mapped, translated, NAT64, 6to4, Teredo), names resolving to loopback, other schemes, and a redirect from an allowed URL to a private one are all
// refused with a clear 400 and nothing is fetched or stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { SsrfGuard } from '../src/net/ssrfGuard.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { countFiles } from './support/fileShares.js';
import { startRemoteFiles, type RemoteFileServer } from './support/remoteFiles.js';

describe.each(dbTargets)('SSRF guard (%s)', (target) => {
  let server: TestServer;
  let token: string;
  let remote: RemoteFileServer;

  beforeAll(async () => {
    remote = await startRemoteFiles({ 'a.txt': { body: new TextEncoder().encode('secret'), type: 'text/plain' } });
    server = await startTestServer(target);
    token = await server.login();
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await remote?.close();
  });

  const refusedUrls = () => [
    `${remote.url}/files/a.txt`,
    `http://[::1]:${remote.port}/files/a.txt`,
    'http://10.0.0.1/x',
    'http://192.168.0.10/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[::ffff:127.0.0.1]/x',
    // IPv6 forms that embed a private IPv4 address, pointed at the live loopback server.
    `http://[::127.0.0.1]:${remote.port}/files/a.txt`,
    `http://[::ffff:127.0.0.1]:${remote.port}/files/a.txt`,
    `http://[::ffff:7f00:1]:${remote.port}/files/a.txt`,
    `http://[::ffff:0:127.0.0.1]:${remote.port}/files/a.txt`,
    `http://[64:ff9b::7f00:1]:${remote.port}/files/a.txt`,
    `http://[64:ff9b:1::7f00:1]:${remote.port}/files/a.txt`,
    `http://[2002:7f00:1::]:${remote.port}/files/a.txt`,
    `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${remote.port}/files/a.txt`,
    'http://[::a9fe:a9fe]/latest/meta-data/',
    'http://100.64.1.1/x',
    'http://0.0.0.0/x',
    `http://localhost:${remote.port}/files/a.txt`,
    'file:///etc/passwd',
    'gopher://127.0.0.1:70/_x',
    'ftp://example.com/x',
  ];

  it('refuses private and non-http URLs on every URL endpoint with a clear 400', async () => {
    const before = await countFiles(server);
    for (const url of refusedUrls()) {
      const info = await server.call('POST', '/api/url/info', { token, body: { url } });
      expect(info.status, url).toBe(400);
      expect(info.body.message, url).toMatch(/^URL refused: /);
      expect((info.body.data as { reason?: string } | undefined)?.reason, url).toBe('url_refused'); // the web words it (issue 35 point 12)
      expect(info.body.message).not.toMatch(/at \w+ \(/); // no stack trace
      const job = await server.call('POST', '/api/url/fetch', { token, body: { url } });
      expect(job.status, url).toBe(400);
      const proxy = await fetch(`${server.url}/api/url/proxy?url=${encodeURIComponent(url)}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(proxy.status, url).toBe(400);
      await proxy.arrayBuffer();
    }
    const scheme = await server.call('POST', '/api/url/info', { token, body: { url: 'file:///etc/passwd' } });
    expect(scheme.body.message).toMatch(/only http and https/);
    const named = await server.call('POST', '/api/url/info', {
      token,
      body: { url: `http://localhost:${remote.port}/files/a.txt` },
    });
    expect(named.body.message).toMatch(/localhost resolves to a loopback address/);
    expect(await countFiles(server)).toBe(before);
  });

  it('checks every redirect hop: an allowed first hop redirecting to a private address is refused', async () => {
    // The first hop is on loopback too (tests have no public server): a stubbed resolver maps
    // allowed.test to 127.0.0.1 and the allow hook lets only that name through.
    const guard = new SsrfGuard({
      allowPrivate: false,
      resolve: async (host) => (host === 'allowed.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
      allow: (host) => host === 'allowed.test',
    });
    const ok = await guard.request(`http://allowed.test:${remote.port}/files/a.txt`);
    expect(ok.response.statusCode).toBe(200);
    ok.response.resume();
    const hop = `http://allowed.test:${remote.port}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${remote.port}/files/a.txt`)}`;
    const err = await guard.request(hop).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).message).toMatch(/URL refused: 127\.0\.0\.1 resolves to a loopback address/);
    // Redirect loops stop after 5 hops.
    const loop = `http://allowed.test:${remote.port}/redirect?to=${encodeURIComponent(`/redirect?to=${encodeURIComponent('/redirect?to=/redirect%3Fto%3D/redirect%253Fto%253D/redirect%25253Fto%25253D/files/a.txt')}`)}`;
    const tooMany = await guard.request(loop).catch((e: unknown) => e);
    expect((tooMany as AppError).message).toMatch(/more than 5 redirects/);
  });
});
