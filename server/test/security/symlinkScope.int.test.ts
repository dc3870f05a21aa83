// Issue 34 point 12: a symbolic link inside one storage root (`team/lnk -> ../secret`) took a key based at
// /local/team to /local/secret. The base path is now checked on where a path really lands, for every fs,
// WebDAV, zip and search operation; listings leave such links out for the key. WebDAV COPY of a link copies
// what it leads to (never an absolute link); links inside a copied folder stay as written (relative).
// Links leading out of the storage root were already refused: checked again here.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { ALL_PERMISSIONS } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fsRaw, fsUpload, type Auth } from '../support/fsApi.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from '../support/harness.js';
import { createMount, createPathKey, mountableLocalConfig, mountedLocalRoot } from '../support/mounts.js';
import { basicAuth } from '../support/webdav.js';
import { unzipAll } from '../support/zipReader.js';

describe.each(dbTargets)('symbolic links and base paths on %s', (target) => {
  let server: TestServer;
  let token: string;
  let keyString: string;
  let key: Auth;
  let root: string;
  const q = encodeURIComponent;

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    await createMount(server, token, {
      path: '/local',
      storage_config_id: await mountableLocalConfig(server, token),
      cache_ttl: 0,
    });
    root = mountedLocalRoot(server);
    const outside = path.join(server.dataDir, 'outside-root');
    for (const d of ['team/sub', 'team/d', 'secret']) mkdirSync(path.join(root, d), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(root, 'secret/s.txt'), 'SECRET-CONTENT');
    writeFileSync(path.join(root, 'team/sub/ok.txt'), 'team content');
    writeFileSync(path.join(outside, 'o.txt'), 'OUTSIDE-CONTENT');
    symlinkSync('../secret', path.join(root, 'team/lnk'));
    symlinkSync('../secret/s.txt', path.join(root, 'team/lnk-file.txt'));
    symlinkSync('sub', path.join(root, 'team/inner'));
    symlinkSync('../sub', path.join(root, 'team/d/rel'));
    symlinkSync(outside, path.join(root, 'team/out'));
    keyString = await createPathKey(server, token, ALL_PERMISSIONS, '/local/team');
    key = { apiKey: keyString };
  });
  afterAll(async () => {
    await server?.close();
  });

  const call = (method: string, url: string, auth: Auth, body?: unknown) =>
    server.call(method, url, { ...auth, ...(body !== undefined ? { body } : {}) });
  const dav = (
    method: string,
    url: string,
    who: 'key' | 'admin',
    headers: Record<string, string> = {},
    body?: string,
  ) =>
    fetch(`${server.url}/dav${url}`, {
      method,
      headers: {
        authorization: who === 'key' ? basicAuth(keyString, keyString) : basicAuth(ADMIN.username, ADMIN.password),
        ...headers,
      },
      ...(body !== undefined ? { body } : {}),
    });
  const noSecret = (text: string) => expect(text).not.toContain('SECRET-CONTENT');

  it('a key cannot read, list or write through a link leading outside its base path (fs API)', async () => {
    const reads = [
      `/api/fs/list?path=${q('/local/team/lnk')}`,
      `/api/fs/get?path=${q('/local/team/lnk/s.txt')}`,
      `/api/fs/download?path=${q('/local/team/lnk/s.txt')}`,
      `/api/fs/download?path=${q('/local/team/lnk-file.txt')}`,
      `/api/fs/file-link?path=${q('/local/team/lnk-file.txt')}`,
    ];
    for (const url of reads) {
      const res = await fsRaw(server, url, key);
      const text = new TextDecoder().decode(res.bytes);
      expect(res.status, `${url}: ${text}`).toBe(403);
      expect(JSON.parse(text).code).toBe(403);
      noSecret(text);
    }
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/fs/mkdir', { path: '/local/team/lnk/new-dir' }],
      ['POST', '/api/fs/update', { path: '/local/team/lnk/s.txt', content: 'overwritten' }],
      ['POST', '/api/fs/update', { path: '/local/team/lnk/new.txt', content: 'planted' }],
      ['POST', '/api/fs/rename', { oldPath: '/local/team/lnk/s.txt', newPath: '/local/team/lnk/t.txt' }],
      ['DELETE', '/api/fs/batch-remove', { paths: ['/local/team/lnk/s.txt'] }],
      ['POST', '/api/fs/create-share', { path: '/local/team/lnk-file.txt' }],
    ];
    for (const [method, url, body] of writes) {
      const res = await call(method, url, key, body);
      expect(res.status, `${method} ${url}: ${res.body.message}`).toBe(403);
    }
    expect((await fsUpload(server, key, 'planted', { before: { path: '/local/team/lnk/up.txt' } })).status).toBe(403);
    const zip = await call('POST', '/api/fs/zip', key, { paths: ['/local/team/lnk'] });
    expect(zip.status).toBe(403);
    // Nothing changed in /local/secret.
    expect(readFileSync(path.join(root, 'secret/s.txt'), 'utf8')).toBe('SECRET-CONTENT');
    for (const n of ['new-dir', 'new.txt', 'up.txt', 't.txt'])
      expect(existsSync(path.join(root, 'secret', n))).toBe(false);
  });

  it("a key's listing, zip and search of its base path leave the link out; links inside it work", async () => {
    const list = await call('GET', `/api/fs/list?path=${q('/local/team')}`, key);
    const names = (list.body.data as { items: Array<{ name: string }> }).items.map((i) => i.name).sort();
    expect(names).toEqual(['d', 'inner', 'sub']);
    const inner = await fsRaw(server, `/api/fs/download?path=${q('/local/team/inner/ok.txt')}`, key);
    expect(new TextDecoder().decode(inner.bytes)).toBe('team content');

    const zip = await fetch(`${server.url}/api/fs/zip`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${keyString}`, 'content-type': 'application/json' },
      body: JSON.stringify({ paths: ['/local/team'] }),
    });
    expect(zip.status).toBe(200);
    const entries = await unzipAll(Buffer.from(await zip.arrayBuffer()));
    for (const [name, bytes] of entries) {
      expect(name).not.toMatch(/lnk|s\.txt/);
      if (bytes) noSecret(bytes.toString());
    }

    // The admin reads through the link (all of it is hers): the index must not learn it under /local/team.
    expect((await call('GET', `/api/fs/list?path=${q('/local/team/lnk')}`, { token })).status).toBe(200);
    const search = await call('GET', `/api/fs/search?q=${q('s.txt')}&path=${q('/local/team')}&scope=directory`, key);
    const found = JSON.stringify(search.body.data ?? {});
    expect(found).not.toContain('/local/team/lnk/');
    const global = await call('GET', `/api/fs/search?q=${q('s.txt')}`, key);
    expect(JSON.stringify(global.body.data ?? {})).not.toContain('s.txt');
  });

  it('WebDAV: no read, listing or write through the link for the key; the admin still reads it', async () => {
    const cases: Array<[string, string, Record<string, string>, string?]> = [
      ['GET', '/local/team/lnk/s.txt', {}],
      ['GET', '/local/team/lnk-file.txt', {}],
      ['PROPFIND', '/local/team/lnk', { depth: '1' }],
      ['PUT', '/local/team/lnk/dav.txt', {}, 'planted'],
      ['MKCOL', '/local/team/lnk/dav-dir', {}],
      ['DELETE', '/local/team/lnk/s.txt', {}],
      ['COPY', '/local/team/lnk', { destination: `${server.url}/dav/local/team/stolen`, overwrite: 'T' }],
      ['MOVE', '/local/team/lnk/s.txt', { destination: `${server.url}/dav/local/team/moved.txt` }],
    ];
    for (const [method, url, headers, body] of cases) {
      const res = await dav(method, url, 'key', headers, body);
      const text = await res.text();
      expect(res.status, `${method} ${url}: ${text.slice(0, 200)}`).toBe(403);
      noSecret(text);
    }
    const propfind = await (await dav('PROPFIND', '/local/team', 'key', { depth: '1' })).text();
    expect(propfind).not.toContain('/lnk');
    expect(existsSync(path.join(root, 'team/stolen'))).toBe(false);
    expect(existsSync(path.join(root, 'secret/s.txt'))).toBe(true);
    expect(existsSync(path.join(root, 'secret/dav.txt'))).toBe(false);
    const admin = await dav('GET', '/local/team/lnk/s.txt', 'admin');
    expect(await admin.text()).toBe('SECRET-CONTENT');
  });

  it('WebDAV COPY of a link copies what it leads to; links inside a copied folder stay relative', async () => {
    for (const who of ['key', 'admin'] as const) {
      const to = `/local/team/inner-copy-${who}`;
      const res = await dav('COPY', '/local/team/inner', who, { destination: `${server.url}/dav${to}` });
      expect(res.status, who).toBe(201);
      const made = path.join(root, to.slice('/local/'.length));
      expect(lstatSync(made).isSymbolicLink(), who).toBe(false);
      expect(readFileSync(path.join(made, 'ok.txt'), 'utf8')).toBe('team content');

      const folder = `/local/team/d-copy-${who}`;
      const copied = await dav('COPY', '/local/team/d', who, { destination: `${server.url}/dav${folder}` });
      expect(copied.status, who).toBe(201);
      const link = path.join(root, folder.slice('/local/'.length), 'rel');
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readlinkSync(link)).toBe('../sub');
      rmSync(path.join(root, folder.slice('/local/'.length)), { recursive: true });
    }
    // A file link copied by the admin: a regular file with the target's bytes, not a link.
    const file = await dav('COPY', '/local/team/lnk-file.txt', 'admin', {
      destination: `${server.url}/dav/local/team/sub/copied.txt`,
    });
    expect(file.status).toBe(201);
    const copiedFile = path.join(root, 'team/sub/copied.txt');
    expect(lstatSync(copiedFile).isSymbolicLink()).toBe(false);
    rmSync(copiedFile);
  });

  it('links leading out of the storage root are refused to everyone', async () => {
    for (const auth of [key, { token }]) {
      for (const url of [
        `/api/fs/download?path=${q('/local/team/out/o.txt')}`,
        `/api/fs/list?path=${q('/local/team/out')}`,
      ]) {
        const res = await fsRaw(server, url, auth);
        const text = new TextDecoder().decode(res.bytes);
        expect([400, 403, 404], `${url}: ${text}`).toContain(res.status);
        expect(text).not.toContain('OUTSIDE-CONTENT');
      }
    }
    const admin = await dav('GET', '/local/team/out/o.txt', 'admin');
    expect([400, 403, 404]).toContain(admin.status);
  });
});
