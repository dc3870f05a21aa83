// Issue 34, point 7: dead properties are read and written only inside the caller's scope. A key with base
// path /local/team sees /local and / as the way down to its folder; it used to replace the admin's dead
// property on /local, write one on /, and read the properties of both in PROPFIND.
import { Permission } from '@clipnest/contract';
import { FOLDER_TOKEN } from '../../src/repositories/davRepository.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { createMount, createPathKey, mountableLocalConfig } from '../support/mounts.js';
import { basicAuth } from '../support/webdav.js';

const patch = (value: string) =>
  '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:clipnest-test">' +
  `<D:set><D:prop><Z:owner>${value}</Z:owner></D:prop></D:set></D:propertyupdate>`;
const remove =
  '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:clipnest-test">' +
  '<D:remove><D:prop><Z:owner/></D:prop></D:remove></D:propertyupdate>';
const allprop = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';

describe.each(dbTargets)('WebDAV dead properties inside the caller scope on %s', (target) => {
  let server: TestServer;
  let team: string;
  const admin = basicAuth(ADMIN.username, ADMIN.password);
  const dav = (method: string, url: string, auth: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${server.url}${url}`, { method, headers: { authorization: auth, ...headers }, body });
  // Dead properties only: folder ETag tokens (the internal namespace) follow every change of the tree.
  const rows = async () =>
    (
      await server.built.database.db
        .selectFrom('dav_properties')
        .select(['path', 'value'])
        .where('ns', '!=', FOLDER_TOKEN.ns)
        .execute()
    )
      .map((r) => `${r.path} ${r.value}`)
      .sort();

  beforeAll(async () => {
    server = await startTestServer(target);
    const token = await server.login();
    const localId = await mountableLocalConfig(server, token);
    await createMount(server, token, { path: '/local', storage_config_id: localId, webdav_policy: 'native_proxy' });
    expect((await dav('MKCOL', '/dav/local/team', admin)).status).toBe(201);
    const key = await createPathKey(server, token, Permission.WEBDAV_MANAGE, '/local/team');
    team = basicAuth(key, key);
    expect((await dav('PROPPATCH', '/dav/local/', admin, {}, patch('admin-local'))).status).toBe(207);
    expect((await dav('PROPPATCH', '/dav/', admin, {}, patch('admin-root'))).status).toBe(207);
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    ['/dav/local/', patch('key')],
    ['/dav/local', remove],
    ['/dav/', patch('key')],
  ])('refuses a key PROPPATCH on %s above its base path (403), changing nothing', async (url, body) => {
    const before = await rows();
    const res = await dav('PROPPATCH', url, team, { 'content-type': 'application/xml' }, body);
    expect(res.status).toBe(403);
    expect(await rows()).toEqual(before);
  });

  it('shows a key none of the dead properties above its base path', async () => {
    for (const [url, depth] of [
      ['/dav/', '0'],
      ['/dav/', '1'],
      ['/dav/local/', '0'],
      ['/dav/local/', '1'],
    ] as const) {
      const res = await dav('PROPFIND', url, team, { depth }, allprop);
      expect(res.status).toBe(207);
      const text = await res.text();
      expect(text, `${url} Depth ${depth}`).not.toContain('urn:clipnest-test');
      expect(text).not.toContain('admin-');
    }
    // The admin still sees its own.
    const own = await (await dav('PROPFIND', '/dav/local/', admin, { depth: '0' }, allprop)).text();
    expect(own).toContain('admin-local');
  });

  it('lets the key keep dead properties inside its base path, and sees them', async () => {
    expect((await dav('PROPPATCH', '/dav/local/team/', team, {}, patch('key-team'))).status).toBe(207);
    const below = await (await dav('PROPFIND', '/dav/local/', team, { depth: '1' }, allprop)).text();
    expect(below).toContain('key-team');
    expect(below).not.toContain('admin-local');
    expect(await rows()).toEqual([
      '/ <Z:owner xmlns:Z="urn:clipnest-test">admin-root</Z:owner>',
      '/local <Z:owner xmlns:Z="urn:clipnest-test">admin-local</Z:owner>',
      '/local/team <Z:owner xmlns:Z="urn:clipnest-test">key-team</Z:owner>',
    ]);
  });
});
