import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Permission, type StorageConfigView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, localRoot, startS3rver, type S3rverHandle } from './support/fileShares.js';
import { bucketSnapshot, diskSnapshot } from './support/fsApi.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, createPathKey, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';
import { basicAuth } from './support/webdav.js';

const LOCK_BODY = (owner: string, scope = 'exclusive') =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope>` +
  `<D:locktype><D:write/></D:locktype><D:owner>${owner}</D:owner></D:lockinfo>`;

describe.each(dbTargets)('WebDAV on %s', (target) => {
  let server: TestServer;
  let s3: S3rverHandle;
  let s3Config: StorageConfigView;
  let admin: string;
  let teamKey: string;
  let readKey: string;
  /** A second instance over the same database and data directory (closed last: closing removes the data). */
  let second: TestServer | undefined;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    const token = await server.login();
    const localId = await mountableLocalConfig(server, token);
    s3Config = await createS3Config(server, token, s3);
    await createMount(server, token, { path: '/team', storage_config_id: localId, webdav_policy: 'native_proxy' });
    await createMount(server, token, {
      path: '/team-b',
      storage_config_id: s3Config.id,
      webdav_policy: 'native_proxy',
    });
    await createMount(server, token, { path: '/s3', storage_config_id: s3Config.id, webdav_policy: '302_redirect' });
    admin = basicAuth(ADMIN.username, ADMIN.password);
    const team = await createPathKey(server, token, Permission.WEBDAV_MANAGE, '/team');
    teamKey = basicAuth(team, team);
    const read = await createPathKey(server, token, Permission.WEBDAV_READ, '/');
    readKey = basicAuth(read, read);
  });
  afterAll(async () => {
    await server?.close();
    await second?.close();
    await s3?.close();
  });

  const dav = (
    method: string,
    url: string,
    auth: string | undefined,
    headers: Record<string, string> = {},
    body?: string,
  ) =>
    fetch(`${server.url}${url}`, {
      method,
      headers: { ...(auth ? { authorization: auth } : {}), ...headers },
      ...(body !== undefined ? { body } : {}),
      redirect: 'manual',
    });
  const snapshot = async () => ({ disk: diskSnapshot(server), bucket: await bucketSnapshot(s3) });

  it('answers OPTIONS with DAV 1, 2 and asks for Basic credentials', async () => {
    const options = await dav('OPTIONS', '/dav/', undefined);
    expect(options.status).toBe(200);
    expect(options.headers.get('dav')).toBe('1, 2');
    expect(options.headers.get('ms-author-via')).toBe('DAV');
    const anonymous = await dav('PROPFIND', '/dav/', undefined, { depth: '0' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="Clipnest"/);
    const wrong = await dav('PROPFIND', '/dav/', basicAuth('admin', 'nope'), { depth: '0' });
    expect(wrong.status).toBe(401);
    const infinity = await dav('PROPFIND', '/dav/', admin, { depth: 'infinity' });
    expect(infinity.status).toBe(403);
    expect(await infinity.text()).toContain('propfind-finite-depth');
  });

  it('lists the mounts at /dav/ and, for a key, only the way to its base path', async () => {
    const root = await (await dav('PROPFIND', '/dav/', admin, { depth: '1' })).text();
    expect(root).toContain('<D:href>/dav/team/</D:href>');
    expect(root).toContain('<D:href>/dav/team-b/</D:href>');
    const keyRoot = await dav('PROPFIND', '/dav/', teamKey, { depth: '1' });
    expect(keyRoot.status).toBe(207);
    const text = await keyRoot.text();
    expect(text).toContain('<D:href>/dav/team/</D:href>');
    expect(text).not.toContain('team-b');
  });

  it('refuses writes from a read-only key and reads for it', async () => {
    expect((await dav('PUT', '/dav/team/r.txt', readKey, {}, 'x')).status).toBe(403);
    expect((await dav('PROPFIND', '/dav/team/', readKey, { depth: '1' })).status).toBe(207);
  });

  it('refuses traversal, other hosts, and paths outside a key base path, touching nothing', async () => {
    const put = await dav('PUT', '/dav/team/keep.txt', admin, {}, 'keep');
    expect(put.status).toBe(201);
    const before = await snapshot();
    const attempts: Array<[string, string, string, Record<string, string>]> = [
      ['PUT', '/dav/team/%2e%2e/escape.txt', admin, {}],
      ['PUT', '/dav/team/..%2fescape.txt', admin, {}],
      ['PUT', '/dav/team/..%5cescape.txt', admin, {}],
      ['PUT', '/dav/team/a%5c..%5c..%5cescape.txt', admin, {}],
      ['PUT', '/dav/team-b/x.txt', teamKey, {}],
      ['DELETE', '/dav/team-b/', teamKey, {}],
      ['MKCOL', '/dav/team-b/dir', teamKey, {}],
      ['COPY', '/dav/team/keep.txt', teamKey, { destination: `${server.url}/dav/team-b/keep.txt` }],
      ['MOVE', '/dav/team/keep.txt', teamKey, { destination: `${server.url}/dav/team-b/keep.txt` }],
      ['COPY', '/dav/team/keep.txt', admin, { destination: 'http://elsewhere.example/dav/team/copy.txt' }],
      ['MOVE', '/dav/team/keep.txt', admin, { destination: `${server.url}/api/escape.txt` }],
      ['MOVE', '/dav/team/keep.txt', admin, { destination: `${server.url}/dav/team/%2e%2e/%2e%2e/escape.txt` }],
    ];
    for (const [method, url, auth, headers] of attempts) {
      const res = await dav(method, url, auth, headers, method === 'PUT' ? 'evil' : undefined);
      expect({ method, url, status: res.status }).toMatchObject({ method, url });
      expect(res.status, `${method} ${url}`).toBeGreaterThanOrEqual(400);
    }
    expect(await snapshot()).toEqual(before);
    const otherHost = await dav('COPY', '/dav/team/keep.txt', admin, {
      destination: 'http://elsewhere.example/dav/team/copy.txt',
    });
    expect(otherHost.status).toBe(502);
    expect(path.isAbsolute(localRoot(server))).toBe(true);
  });

  it('copies and moves across mounts, carrying dead properties', async () => {
    await dav('MKCOL', '/dav/team/tree', admin);
    await dav('PUT', '/dav/team/tree/a b.txt', admin, {}, 'hello');
    const patch = await dav(
      'PROPPATCH',
      '/dav/team/tree/a%20b.txt',
      admin,
      { 'content-type': 'application/xml' },
      '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:color>blue</Z:color></D:prop></D:set></D:propertyupdate>',
    );
    expect(patch.status).toBe(207);
    const copy = await dav('COPY', '/dav/team/tree', admin, { destination: '/dav/team-b/tree' });
    expect(copy.status).toBe(201);
    const move = await dav('MOVE', '/dav/team-b/tree', admin, { destination: '/dav/team/moved', overwrite: 'F' });
    expect(move.status).toBe(201);
    const got = await dav('GET', '/dav/team/moved/a%20b.txt', admin);
    expect(await got.text()).toBe('hello');
    const props = await (
      await dav(
        'PROPFIND',
        '/dav/team/moved/a%20b.txt',
        admin,
        { depth: '0' },
        '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>',
      )
    ).text();
    expect(props).toContain('blue');
    expect(
      (await dav('COPY', '/dav/team/moved', admin, { destination: '/dav/team/tree', overwrite: 'F' })).status,
    ).toBe(412);
    // An If header that does not match the source refuses the copy.
    expect(
      (await dav('COPY', '/dav/team/moved/a%20b.txt', admin, { destination: '/dav/team/c.txt', if: '(["nope"])' }))
        .status,
    ).toBe(412);
  });

  it('redirects GET on a 302_redirect S3 mount only for clients that follow redirects (rclone)', async () => {
    await dav('PUT', '/dav/s3/r.txt', admin, {}, 'redirected');
    const res = await dav('GET', '/dav/s3/r.txt', admin, { 'user-agent': 'rclone/v1.60.1' });
    expect(res.status).toBe(302);
    expect(await (await fetch(res.headers.get('location') as string)).text()).toBe('redirected');
    for (const agent of [
      'Microsoft-WebDAV-MiniRedir/10.0.19045',
      'cadaver/0.24 neon/0.32.5',
      'litmus/0.13 neon/0.32.5',
      'davfs2/1.7.0 neon/0.32.5',
      'WebDAVFS/3.0.0 (03008000) Darwin/22.1.0 (arm64)',
      'Microsoft Office Word 2014',
      'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
      undefined,
    ]) {
      const other = await dav('GET', '/dav/s3/r.txt', admin, agent ? { 'user-agent': agent } : {});
      expect(other.status, agent).toBe(200);
      expect(await other.text()).toBe('redirected');
    }
  });

  it('holds a lock against another client, across another instance of the server', async () => {
    expect((await dav('PUT', '/dav/team/locked.txt', admin, {}, 'v1')).status).toBe(201);
    const lock = await dav('LOCK', '/dav/team/locked.txt', admin, { timeout: 'Second-600' }, LOCK_BODY('alice'));
    expect(lock.status).toBe(200);
    const token = lock.headers.get('lock-token') as string;
    expect(token).toMatch(/^<urn:uuid:/);
    // Another client (the team key) cannot write or lock it.
    expect((await dav('PUT', '/dav/team/locked.txt', teamKey, {}, 'v2')).status).toBe(423);
    expect((await dav('LOCK', '/dav/team/locked.txt', teamKey, {}, LOCK_BODY('bob', 'shared'))).status).toBe(423);
    // Nor can the holder without sending the token.
    expect((await dav('DELETE', '/dav/team/locked.txt', admin)).status).toBe(423);

    // A second server over the same database and data (a restart of the process) still knows the lock.
    const dataDir = path.resolve(localRoot(server), '..', '..');
    second = await startTestServer(
      target,
      {},
      { reuse: { dataDir }, ...(server.schema ? { sharedSchema: server.schema } : {}) },
    );
    const blocked = await fetch(`${second!.url}/dav/team/locked.txt`, {
      method: 'PUT',
      headers: { authorization: admin },
      body: 'v3',
    });
    expect(blocked.status).toBe(423);
    const allowed = await fetch(`${second!.url}/dav/team/locked.txt`, {
      method: 'PUT',
      headers: { authorization: admin, if: `(${token})` },
      body: 'v4',
    });
    expect(allowed.status).toBe(204);
    const unlock = await fetch(`${second!.url}/dav/team/locked.txt`, {
      method: 'UNLOCK',
      headers: { authorization: admin, 'lock-token': token },
    });
    expect(unlock.status).toBe(204);
    // Unlocked: the other client writes again.
    expect((await dav('PUT', '/dav/team/locked.txt', teamKey, {}, 'v5')).status).toBeLessThan(300);
  });

  it('serves Range, ETag and If-Modified-Since; PUT answers 201 then 204 and 409 without a parent', async () => {
    expect((await dav('PUT', '/dav/team/range.txt', admin, {}, '0123456789')).status).toBe(201);
    expect((await dav('PUT', '/dav/team/range.txt', admin, {}, 'abcdefghij')).status).toBe(204);
    expect((await dav('PUT', '/dav/team/missing/x.txt', admin, {}, 'x')).status).toBe(409);
    const part = await dav('GET', '/dav/team/range.txt', admin, { range: 'bytes=2-4' });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('cde');
    const etag = part.headers.get('etag') as string;
    expect((await dav('GET', '/dav/team/range.txt', admin, { 'if-none-match': etag })).status).toBe(304);
    const modified = part.headers.get('last-modified') as string;
    expect((await dav('GET', '/dav/team/range.txt', admin, { 'if-modified-since': modified })).status).toBe(304);
    expect((await dav('MKCOL', '/dav/team/range.txt', admin)).status).toBe(405);
    expect((await dav('MKCOL', '/dav/team/no/parent', admin)).status).toBe(409);
  });

  it('grants only one of two concurrent exclusive LOCKs, on one instance and across two', async () => {
    for (let round = 0; round < 4; round++) {
      const file = `/dav/team/race-${round}.txt`;
      expect((await dav('PUT', file, admin, {}, 'race')).status).toBe(201);
      const other = round % 2 === 1 && second ? second.url : server.url;
      const [a, b] = await Promise.all([
        dav('LOCK', file, admin, {}, LOCK_BODY('alice')),
        fetch(`${other}${file}`, { method: 'LOCK', headers: { authorization: teamKey }, body: LOCK_BODY('bob') }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 423]);
    }
  });

  it('forgets a key at once when it is disabled or deleted, and the old password when it changes', async () => {
    const token = await server.login();
    const created = await server.call<{ id: string; key: string }>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'dav-revoke', permissions: Permission.WEBDAV_READ, basic_path: '/' },
    });
    const { id, key } = created.body.data!;
    const auth = basicAuth(key, key);
    expect((await dav('PROPFIND', '/dav/', auth, { depth: '0' })).status).toBe(207);
    await server.call('PUT', `/api/admin/api-keys/${id}`, { token, body: { enabled: false } });
    expect((await dav('PROPFIND', '/dav/', auth, { depth: '0' })).status).toBe(401);
    await server.call('PUT', `/api/admin/api-keys/${id}`, { token, body: { enabled: true } });
    expect((await dav('PROPFIND', '/dav/', auth, { depth: '0' })).status).toBe(207);
    await server.call('DELETE', `/api/admin/api-keys/${id}`, { token });
    expect((await dav('PROPFIND', '/dav/', auth, { depth: '0' })).status).toBe(401);

    expect((await dav('PROPFIND', '/dav/', admin, { depth: '0' })).status).toBe(207);
    const changed = await server.call('POST', '/api/admin/change-password', {
      token,
      body: { currentPassword: ADMIN.password, newPassword: `${ADMIN.password}-new` },
    });
    expect(changed.status).toBe(200);
    expect((await dav('PROPFIND', '/dav/', admin, { depth: '0' })).status).toBe(401);
    const renewed = basicAuth(ADMIN.username, `${ADMIN.password}-new`);
    expect((await dav('PROPFIND', '/dav/', renewed, { depth: '0' })).status).toBe(207);
    // Back to the password the other tests use.
    const newToken = await server.login(ADMIN.username, `${ADMIN.password}-new`);
    const back = await server.call('POST', '/api/admin/change-password', {
      token: newToken,
      body: { currentPassword: `${ADMIN.password}-new`, newPassword: ADMIN.password },
    });
    expect(back.status).toBe(200);
  });

  it('honours X-OC-Mtime on PUT: utimes on a local mount, kept beside the object on S3', async () => {
    const at = 1_600_000_000;
    const shown = new Date(at * 1000).toUTCString();
    for (const dir of ['/dav/team', '/dav/team-b']) {
      const put = await dav('PUT', `${dir}/oc.txt`, admin, { 'x-oc-mtime': String(at) }, 'nextcloud');
      expect(put.status).toBe(201);
      expect(put.headers.get('x-oc-mtime')).toBe('accepted');
      for (const [url, depth] of [
        [`${dir}/oc.txt`, '0'],
        [`${dir}/`, '1'],
      ] as const) {
        const listing = await (await dav('PROPFIND', url, admin, { depth })).text();
        const response = listing.split('<D:response>').find((r) => r.includes(`${dir}/oc.txt<`)) ?? '';
        expect(response).toContain(`<D:getlastmodified>${shown}</D:getlastmodified>`);
      }
      // A later PUT without the header: the time of that upload.
      expect((await dav('PUT', `${dir}/oc.txt`, admin, {}, 'nextcloud')).status).toBe(204);
      const after = await (await dav('PROPFIND', `${dir}/oc.txt`, admin, { depth: '0' })).text();
      expect(after).not.toContain(shown);
      expect((await dav('PUT', `${dir}/oc.txt`, admin, { 'x-oc-mtime': 'yesterday' }, 'x')).status).toBe(400);
    }
    await dav('PUT', '/dav/team/oc-disk.txt', admin, { 'x-oc-mtime': String(at) }, 'on disk');
    expect(statSync(path.join(mountedLocalRoot(server), 'oc-disk.txt')).mtimeMs).toBe(at * 1000);
  });

  it('streams the PROPFIND of a big folder (more than one storage page), every member once', async () => {
    const dir = path.join(mountedLocalRoot(server), 'big');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 1205; i++) writeFileSync(path.join(dir, `f & ${String(i).padStart(4, '0')}.txt`), 'x');
    const count = async () => {
      const res = await dav('PROPFIND', '/dav/team/big/', admin, { depth: '1' });
      expect(res.status).toBe(207);
      expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
      const text = await res.text();
      expect(text.endsWith('</D:multistatus>')).toBe(true);
      expect(text).toContain('<D:href>/dav/team/big/f%20%26%200007.txt</D:href>');
      expect(text).toContain('<D:displayname>f &amp; 1204.txt</D:displayname>');
      return new Set([...text.matchAll(/<D:href>([^<]+)<\/D:href>/g)].map((m) => m[1])).size;
    };
    expect(await count()).toBe(1206);
    expect((await dav('PUT', '/dav/team/big/zz-new.txt', admin, {}, 'x')).status).toBe(201);
    expect(await count()).toBe(1207);
  });

  // Last: it spends this client's WebDAV attempts.
  it('limits wrong credentials per client with 429 (the webdav kind of the secret-attempt limiter)', async () => {
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++) {
      status = (await dav('PROPFIND', '/dav/', basicAuth('admin', `wrong-${i}`), { depth: '0' })).status;
    }
    expect(status).toBe(429);
  });
});
