import { execFile } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';
import { basicAuth } from './support/webdav.js';

const NEXTCLOUDCMD = '/usr/bin/nextcloudcmd';
const haveClient = existsSync(NEXTCLOUDCMD);
if (!haveClient && process.env.CI)
  throw new Error(`${NEXTCLOUDCMD} is missing: .ci/run installs nextcloud-desktop-cmd`);

function nextcloudcmd(local: string, url: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      NEXTCLOUDCMD,
      ['--non-interactive', '-u', ADMIN.username, '-p', ADMIN.password, '--path', '/local', local, url],
      { maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** Every file below `dir` (sync journals left out) with its text, or its size for big files. */
function treeOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const e of readdirSync(path.join(dir, at), { withFileTypes: true })) {
      const rel = at ? `${at}/${e.name}` : e.name;
      if (e.name.startsWith('.sync_') || e.name.startsWith('.nextcloudsync') || e.name === '.owncloudsync.log')
        continue;
      if (e.isDirectory()) {
        out[`${rel}/`] = '';
        walk(rel);
      } else {
        const file = path.join(dir, rel);
        const size = readFileSync(file).length;
        out[rel] = size > 1024 * 1024 ? `${size} bytes` : readFileSync(file, 'utf8');
      }
    }
  };
  walk('');
  return out;
}

describe.each(dbTargets)('Nextcloud and ownCloud clients on %s', (target) => {
  let server: TestServer;
  let token: string;
  let root: string;
  const auth = () => ({ authorization: basicAuth(ADMIN.username, ADMIN.password) });

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    const raised = await server.call('PUT', '/api/admin/settings/group/1', {
      token,
      body: { max_upload_size: 1, max_upload_size_unit: 'GB' },
    });
    expect(raised.status).toBe(200);
    const localId = await mountableLocalConfig(server, token);
    await createMount(server, token, {
      path: '/local',
      storage_config_id: localId,
      webdav_policy: 'native_proxy',
      cache_ttl: 0,
    });
    root = mountedLocalRoot(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers status.php, the capabilities and the signed-in user as Nextcloud does', async () => {
    for (const at of ['/status.php', '/nextcloud/status.php']) {
      const status = await fetch(`${server.url}${at}`);
      expect(status.status).toBe(200);
      expect(await status.json()).toMatchObject({ installed: true, maintenance: false, versionstring: '28.0.0' });
    }
    const caps = await fetch(`${server.url}/ocs/v1.php/cloud/capabilities?format=json`);
    expect(await caps.json()).toMatchObject({
      ocs: { meta: { statuscode: 100 }, data: { capabilities: { dav: { chunking: '1.0' } } } },
    });
    const anonymous = await fetch(`${server.url}/ocs/v2.php/cloud/user?format=json`);
    expect(anonymous.status).toBe(401);
    const user = await fetch(`${server.url}/ocs/v2.php/cloud/user?format=json`, { headers: auth() });
    expect(await user.json()).toMatchObject({ ocs: { meta: { statuscode: 200 }, data: { id: ADMIN.username } } });
  });

  it('serves the tree at remote.php with ownCloud properties, and folder ETags follow changes below them', async () => {
    mkdirSync(path.join(root, 'props/inner'), { recursive: true });
    const propfind = async (at: string) => {
      const res = await fetch(`${server.url}/remote.php/dav/files/${ADMIN.username}${at}`, {
        method: 'PROPFIND',
        headers: { ...auth(), depth: '0', 'content-type': 'application/xml' },
        body:
          '<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns"><d:prop>' +
          '<d:getetag/><oc:id/><oc:fileid/><oc:permissions/><oc:size/></d:prop></d:propfind>',
      });
      expect(res.status).toBe(207);
      const text = await res.text();
      return { text, etag: /<D:getetag>([^<]*)<\/D:getetag>/.exec(text)?.[1] };
    };
    const before = await propfind('/local/props/');
    expect(before.text).toContain(`<D:href>/remote.php/dav/files/${ADMIN.username}/local/props/</D:href>`);
    expect(before.text).toMatch(/<oc:fileid [^>]*>\d+<\/oc:fileid>/);
    expect(before.text).toContain('>GDNVCK</oc:permissions>');
    expect(before.etag).toBeTruthy();
    expect((await propfind('/local/props/')).etag).toBe(before.etag);
    const rootBefore = (await propfind('/')).etag;

    const put = await fetch(`${server.url}/remote.php/webdav/local/props/inner/deep.txt`, {
      method: 'PUT',
      headers: auth(),
      body: 'deep',
    });
    expect(put.status).toBe(201);
    expect(put.headers.get('oc-fileid')).toMatch(/^\d{8,}occlipnest$/);
    expect(put.headers.get('oc-etag')).toBeTruthy();
    await server.built.services.folderEtags.flush();
    expect((await propfind('/local/props/')).etag).not.toBe(before.etag);
    expect((await propfind('/')).etag).not.toBe(rootBefore);
  });

  it('takes a chunked upload (v2): chunks into an upload folder, then one MOVE onto the file', async () => {
    const uploads = `${server.url}/remote.php/dav/uploads/${ADMIN.username}/transfer-1`;
    expect((await fetch(uploads, { method: 'MKCOL', headers: auth() })).status).toBe(201);
    for (const [name, body] of [
      ['00002', 'world'],
      ['00001', 'hello '],
    ] as const) {
      expect((await fetch(`${uploads}/${name}`, { method: 'PUT', headers: auth(), body })).status).toBe(201);
    }
    const listed = await fetch(uploads, { method: 'PROPFIND', headers: { ...auth(), depth: '1' } });
    expect(await listed.text()).toContain(`/remote.php/dav/uploads/${ADMIN.username}/transfer-1/00001</D:href>`);
    const wrongTotal = await fetch(`${uploads}/.file`, {
      method: 'MOVE',
      headers: {
        ...auth(),
        destination: `${server.url}/remote.php/dav/files/${ADMIN.username}/local/chunked.txt`,
        'oc-total-length': '99',
      },
    });
    expect(wrongTotal.status).toBe(400);
    expect(existsSync(path.join(root, 'chunked.txt'))).toBe(false);
    const moved = await fetch(`${uploads}/.file`, {
      method: 'MOVE',
      headers: {
        ...auth(),
        destination: `${server.url}/remote.php/dav/files/${ADMIN.username}/local/chunked.txt`,
        'oc-total-length': '11',
        'x-oc-mtime': '1700000000',
      },
    });
    expect(moved.status).toBe(201);
    expect(moved.headers.get('x-oc-mtime')).toBe('accepted');
    expect(readFileSync(path.join(root, 'chunked.txt'), 'utf8')).toBe('hello world');
    expect((await fetch(uploads, { method: 'PROPFIND', headers: { ...auth(), depth: '0' } })).status).toBe(404);

    // Names that could walk are refused; another caller's uploads are not reachable.
    for (const bad of ['..', '.hidden', 'a%2Fb']) {
      const res = await fetch(`${server.url}/remote.php/dav/uploads/${ADMIN.username}/${bad}`, {
        method: 'MKCOL',
        headers: auth(),
      });
      expect([400, 404]).toContain(res.status);
    }
  });

  it.skipIf(!haveClient)(
    'nextcloudcmd syncs both ways: edits and deletes on each side, unicode names, a 300 MB file, no conflict copies',
    async () => {
      const local = mkdtempSync(path.join(tmpdir(), 'nextcloudcmd-'));
      try {
        mkdirSync(path.join(root, 'synced/ü b#%'), { recursive: true });
        writeFileSync(path.join(root, 'synced/a.txt'), 'from the server');
        writeFileSync(path.join(root, 'synced/ü b#%/名字 1.txt'), 'unicode');
        const sync = async () => {
          const run = await nextcloudcmd(local, server.url);
          expect(run.code, run.output.slice(-4000)).toBe(0);
          return run.output;
        };
        await sync();
        expect(treeOf(path.join(local))).toMatchObject({
          'synced/a.txt': 'from the server',
          'synced/ü b#%/名字 1.txt': 'unicode',
        });

        // Up: a new folder with a file, a new file in a unicode folder.
        mkdirSync(path.join(local, 'synced/from phone/deep'), { recursive: true });
        writeFileSync(path.join(local, 'synced/from phone/deep/1.txt'), 'one');
        writeFileSync(path.join(local, 'synced/ü b#%/新.txt'), 'new');
        await sync();
        expect(readFileSync(path.join(root, 'synced/from phone/deep/1.txt'), 'utf8')).toBe('one');
        expect(readFileSync(path.join(root, 'synced/ü b#%/新.txt'), 'utf8')).toBe('new');

        // An edit on each side (the server's through Clipnest's own WebDAV).
        const edit = await fetch(`${server.url}/dav/local/synced/a.txt`, {
          method: 'PUT',
          headers: auth(),
          body: 'edited on the server',
        });
        expect(edit.status).toBe(204);
        writeFileSync(path.join(local, 'synced/ü b#%/名字 1.txt'), 'edited locally');
        await sync();
        expect(readFileSync(path.join(local, 'synced/a.txt'), 'utf8')).toBe('edited on the server');
        expect(readFileSync(path.join(root, 'synced/ü b#%/名字 1.txt'), 'utf8')).toBe('edited locally');

        // A delete on each side.
        const gone = await fetch(`${server.url}/dav/local/synced/a.txt`, { method: 'DELETE', headers: auth() });
        expect(gone.status).toBe(204);
        rmSync(path.join(local, 'synced/from phone/deep/1.txt'));
        await sync();
        expect(existsSync(path.join(local, 'synced/a.txt'))).toBe(false);
        expect(existsSync(path.join(root, 'synced/from phone/deep/1.txt'))).toBe(false);

        // 300 MB: sent in chunks (chunked upload v2), streamed into one file.
        const big = path.join(local, 'synced/big.bin');
        const fd = openSync(big, 'w');
        const block = Buffer.alloc(1024 * 1024);
        for (let i = 0; i < 300; i++) {
          block.fill(i % 251);
          writeSync(fd, block);
        }
        closeSync(fd);
        const output = await sync();
        expect(output).toMatch(/PropagateUploadFileNG/);
        expect(readFileSync(path.join(root, 'synced/big.bin')).equals(readFileSync(big))).toBe(true);

        // Nothing left to do, and nothing doubled.
        const last = await sync();
        expect(last).not.toMatch(/CSYNC_INSTRUCTION_(NEW|SYNC|REMOVE|CONFLICT)/);
        const everything = [...Object.keys(treeOf(local)), ...Object.keys(treeOf(root))];
        expect(everything.filter((name) => /conflict/i.test(name))).toEqual([]);
        expect(treeOf(path.join(local, 'synced'))).toEqual(treeOf(path.join(root, 'synced')));
      } finally {
        rmSync(local, { recursive: true, force: true });
      }
    },
    600_000,
  );
});
