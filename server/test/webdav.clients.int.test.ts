// What real WebDAV clients (Windows Explorer, Finder, davfs2, rclone, curl) read from the server: folder dates,
// names from a raw UTF-8 Destination, content types of GET, quota properties (issue 35).
import { statfsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { MountView, StorageConfigView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, startS3rver, upload, type S3rverHandle } from './support/fileShares.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';
import { basicAuth } from './support/webdav.js';

/** The responses of a multistatus: href → the text of each property element (by local name). */
function responses(xml: string): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const [, body] of xml.matchAll(/<D:response>([\s\S]*?)<\/D:response>/g)) {
    const href = decodeURIComponent(/<D:href>([^<]*)<\/D:href>/.exec(body as string)?.[1] ?? '');
    const props: Record<string, string> = {};
    for (const [, name, value] of (body as string).matchAll(/<(?:D|X|lp\d):([\w-]+)(?: [^>]*)?>([^<]*)<\//g)) {
      props[name as string] = value as string;
    }
    out.set(href, props);
  }
  return out;
}

/**
 * A request whose header values go on the wire as raw UTF-8 bytes (as several clients send a Destination),
 * not percent-encoded. Node writes header strings as latin-1: each char of the binary string is one byte.
 */
function rawUtf8Request(
  url: string,
  method: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const wire = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, Buffer.from(v, 'utf8').toString('latin1')]),
  );
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: wire }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(dbTargets)('WebDAV as clients see it on %s', (target) => {
  let server: TestServer;
  let s3: S3rverHandle;
  let s3Config: StorageConfigView;
  let s3Mount: MountView;
  let localMount: MountView;
  let localId: string;
  let token: string;
  const admin = basicAuth(ADMIN.username, ADMIN.password);

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
    localId = await mountableLocalConfig(server, token);
    s3Config = await createS3Config(server, token, s3);
    localMount = await createMount(server, token, { path: '/local', storage_config_id: localId });
    s3Mount = await createMount(server, token, { path: '/s3', storage_config_id: s3Config.id });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const dav = (method: string, url: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${server.url}${url}`, {
      method,
      headers: { authorization: admin, ...headers },
      ...(body !== undefined ? { body } : {}),
      redirect: 'manual',
    });
  const propfind = async (url: string, depth: '0' | '1') => {
    const res = await dav('PROPFIND', url, { depth });
    expect(res.status).toBe(207);
    return responses(await res.text());
  };

  it('dates /dav/, mount points and S3 folders by the newest time known, never 1970', async () => {
    expect((await dav('MKCOL', '/dav/s3/folder/')).status).toBe(201);
    expect((await dav('PUT', '/dav/s3/folder/a.txt', {}, 'a')).status).toBe(201);
    const mountsTime = Math.max(Date.parse(s3Mount.updated_at), Date.parse(localMount.updated_at));
    const seconds = (http: string | undefined) => Math.floor(Date.parse(http ?? '') / 1000);

    const root = await propfind('/dav/', '1');
    for (const [href, props] of root) {
      expect(props.getlastmodified, href).not.toMatch(/1970/);
      expect(props.creationdate, href).not.toMatch(/^1970/);
    }
    expect(seconds(root.get('/dav/')?.getlastmodified)).toBe(Math.floor(mountsTime / 1000));
    expect(seconds(root.get('/dav/s3/')?.getlastmodified)).toBe(Math.floor(Date.parse(s3Mount.updated_at) / 1000));
    expect(seconds((await propfind('/dav/', '0')).get('/dav/')?.getlastmodified)).toBe(Math.floor(mountsTime / 1000));
    expect(seconds((await propfind('/dav/s3/', '0')).get('/dav/s3/')?.getlastmodified)).toBe(
      Math.floor(Date.parse(s3Mount.updated_at) / 1000),
    );

    // An S3 prefix has no time: its mount's in the parent's listing, its newest member's in its own.
    const mount = await propfind('/dav/s3/', '1');
    for (const [href, props] of mount) expect(props.getlastmodified, href).not.toMatch(/1970/);
    expect(seconds(mount.get('/dav/s3/folder/')?.getlastmodified)).toBeGreaterThanOrEqual(
      Math.floor(Date.parse(s3Mount.updated_at) / 1000),
    );
    const folder = await propfind('/dav/s3/folder/', '1');
    const file = folder.get('/dav/s3/folder/a.txt')?.getlastmodified;
    expect(file).toBeDefined();
    expect(folder.get('/dav/s3/folder/')?.getlastmodified).toBe(file);
    expect((await propfind('/dav/s3/folder/', '0')).get('/dav/s3/folder/')?.getlastmodified).not.toMatch(/1970/);
  });

  it.each(['local', 's3'])(
    'reads a raw UTF-8 Destination as UTF-8 on the %s mount (COPY and MOVE), 400 for bytes that are not UTF-8',
    async (mount) => {
      expect((await dav('PUT', `/dav/${mount}/src.txt`, {}, 'utf8 names')).status).toBe(201);
      const copy = await rawUtf8Request(`${server.url}/dav/${mount}/src.txt`, 'COPY', {
        authorization: admin,
        destination: `${server.url}/dav/${mount}/dst 中文 ä.txt`,
      });
      expect(copy.status).toBe(201);
      const move = await rawUtf8Request(`${server.url}/dav/${mount}/src.txt`, 'MOVE', {
        authorization: admin,
        destination: `/dav/${mount}/moved ✓ ü.txt`,
      });
      expect(move.status).toBe(201);
      const listing = await propfind(`/dav/${mount}/`, '1');
      expect([...listing.keys()]).toEqual(
        expect.arrayContaining([`/dav/${mount}/dst 中文 ä.txt`, `/dav/${mount}/moved ✓ ü.txt`]),
      );
      expect([...listing.keys()].some((href) => /Ã|ä¸/.test(href))).toBe(false);
      expect(await (await dav('GET', `/dav/${mount}/${encodeURIComponent('dst 中文 ä.txt')}`)).text()).toBe(
        'utf8 names',
      );

      // A latin-1 byte (0xE4 alone) is not UTF-8: refused, nothing written.
      const latin1 = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          `${server.url}/dav/${mount}/${encodeURIComponent('moved ✓ ü.txt')}`,
          { method: 'COPY', headers: { authorization: admin, destination: `/dav/${mount}/bad \u00e4.txt` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(latin1).toBe(400);
      expect([...(await propfind(`/dav/${mount}/`, '1')).keys()].filter((h) => h.includes('bad'))).toEqual([]);
    },
  );

  it('answers a raw UTF-8 request line with 400 (Node refuses it before the app: docs/webdav.md) and keeps serving', async () => {
    const { hostname, port } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.end(
          Buffer.concat([
            Buffer.from('PROPFIND /dav/local/'),
            Buffer.from('中文.txt', 'utf8'),
            Buffer.from(` HTTP/1.1\r\nHost: ${hostname}\r\nDepth: 0\r\nConnection: close\r\n\r\n`),
          ]),
        );
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect((await dav('PROPFIND', '/dav/local/', { depth: '0' })).status).toBe(207);
  });

  it.each(['local', 's3'])(
    "GET keeps a file's own type (the one PROPFIND names) on the %s mount; script-capable types stay sandboxed attachments",
    async (mount) => {
      const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
      const kept: Array<[string, string]> = [
        ['notes.txt', 'text/plain'],
        ['readme.md', 'text/markdown'],
        ['data.json', 'application/json'],
        ['letter.docx', DOCX],
        ['sheet.csv', 'text/csv'],
        ['paper.pdf', 'application/pdf'],
      ];
      const active = ['page.html', 'page.xhtml', 'image.svg', 'feed.xml', 'app.js', 'noext'];
      for (const [name] of kept) expect((await dav('PUT', `/dav/${mount}/${name}`, {}, 'content')).status).toBe(201);
      for (const name of active) {
        // A client may declare any type: `noext` comes with text/html.
        const headers: Record<string, string> = name === 'noext' ? { 'content-type': 'text/html' } : {};
        expect((await dav('PUT', `/dav/${mount}/${name}`, headers, '<script>alert(1)</script>')).status).toBe(201);
      }
      const listing = await propfind(`/dav/${mount}/`, '1');
      for (const [name, type] of kept) {
        expect(listing.get(`/dav/${mount}/${name}`)?.getcontenttype, name).toBe(type);
        for (const method of ['GET', 'HEAD']) {
          const res = await dav(method, `/dav/${mount}/${name}`);
          expect(res.status, `${method} ${name}`).toBe(200);
          expect(res.headers.get('content-type'), `${method} ${name}`).toBe(type);
          expect(res.headers.get('content-disposition') ?? '', `${method} ${name}`).not.toMatch(/^attachment/);
          expect(res.headers.get('x-content-type-options')).toBe('nosniff');
          if (method === 'GET') expect(await res.text()).toBe('content');
        }
      }
      for (const name of active) {
        const res = await dav('GET', `/dav/${mount}/${name}`);
        expect(res.status, name).toBe(200);
        expect(res.headers.get('content-type'), name).toBe('application/octet-stream');
        expect(res.headers.get('content-disposition'), name).toMatch(/^attachment/);
        expect(res.headers.get('content-security-policy'), name).toMatch(/^sandbox/);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(await res.text()).toBe('<script>alert(1)</script>');
      }
    },
  );

  it('answers the RFC 4331 quota properties from the storage: the disk, or what is left of a configured capacity', async () => {
    const QUOTA_BODY =
      '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop>' +
      '<D:quota-available-bytes/><D:quota-used-bytes/><D:getlastmodified/></D:prop></D:propfind>';
    const quota = async (url: string, depth: '0' | '1' = '0') => {
      const res = await dav('PROPFIND', url, { depth, 'content-type': 'application/xml' }, QUOTA_BODY);
      expect(res.status).toBe(207);
      const text = await res.text();
      const props = responses(text).get(decodeURIComponent(url));
      return {
        text,
        available: props?.['quota-available-bytes'] === undefined ? undefined : Number(props['quota-available-bytes']),
        used: props?.['quota-used-bytes'] === undefined ? undefined : Number(props['quota-used-bytes']),
      };
    };
    const disk = () => {
      const s = statfsSync(mountedLocalRoot(server));
      return { free: s.bavail * s.bsize, used: (s.blocks - s.bfree) * s.bsize };
    };
    const near = (value: number | undefined, expected: number) =>
      expect(Math.abs((value ?? -1e18) - expected)).toBeLessThan(256 * 1024 * 1024);

    // A local storage without a capacity: its disk (other writers on the machine move it a little).
    const local = await quota('/dav/local/');
    near(local.available, disk().free);
    near(local.used, disk().used);
    expect(local.text).not.toContain('404 Not Found');
    // allprop does not carry them (RFC 4331); they are computed only when named.
    const all = await (await dav('PROPFIND', '/dav/local/', { depth: '0' })).text();
    expect(all).not.toContain('quota-');

    // An S3 bucket without a capacity has no size: 404 for both, as before.
    const bucket = await quota('/dav/s3/');
    expect([bucket.available, bucket.used]).toEqual([undefined, undefined]);
    expect(bucket.text).toMatch(/<D:quota-available-bytes\/><D:quota-used-bytes\/>.*404 Not Found/);

    // With a capacity: what the storage holds (its file shares, a 1000-byte one here, plus the files its mounts
    // hold: the figure the storage config page shows), and what is left.
    const capacity = 10 * 1024 * 1024;
    for (const id of [s3Config.id, localId]) {
      const res = await server.call('PUT', `/api/s3-configs/${id}`, { token, body: { total_capacity: capacity } });
      expect(res.status).toBe(200);
    }
    const usedOf = async (id: string) =>
      (await server.call<StorageConfigView>('GET', `/api/s3-configs/${id}`, { token })).body.data!.used_bytes;
    const before = await usedOf(s3Config.id);
    const share = await upload(server, 'x'.repeat(1000), { token, fields: { s3_config_id: s3Config.id } });
    expect(share.status).toBe(201);
    const s3Used = await usedOf(s3Config.id);
    expect(s3Used).toBe(before + 1000);
    const localUsed = await usedOf(localId);
    server.clock.advance(11_000); // past the figures' 10 s cache
    const capped = await quota('/dav/s3/');
    expect(capped).toMatchObject({ used: s3Used, available: capacity - s3Used });
    // Any member of the mount answers its storage's figures.
    expect((await dav('MKCOL', '/dav/s3/quota-folder/')).status).toBe(201);
    expect(await quota('/dav/s3/quota-folder/')).toMatchObject({ used: s3Used, available: capacity - s3Used });
    expect(await quota('/dav/local/')).toMatchObject({ used: localUsed, available: capacity - localUsed });
    // /dav/ (what Windows Explorer maps) adds up the storages of the mounts below it.
    expect(await quota('/dav/')).toMatchObject({
      used: s3Used + localUsed,
      available: 2 * capacity - s3Used - localUsed,
    });
    // Protected: a PROPPATCH cannot set them.
    const patch = await dav(
      'PROPPATCH',
      '/dav/local/',
      { 'content-type': 'application/xml' },
      '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop>' +
        '<D:quota-available-bytes>1</D:quota-available-bytes></D:prop></D:set></D:propertyupdate>',
    );
    expect(await patch.text()).toContain('403 Forbidden');
  });
});
