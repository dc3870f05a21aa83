import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, mountableLocalConfig, mountedLocalRoot } from './support/mounts.js';
import { basicAuth } from './support/webdav.js';

const NEXTCLOUDCMD = '/usr/bin/nextcloudcmd';

function nextcloudcmd(local: string, url: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      NEXTCLOUDCMD,
      ['--non-interactive', '-u', ADMIN.username, '-p', ADMIN.password, '--path', '/local', local, url],
      { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

describe.each(dbTargets)('changes made on the disk behind Clipnest, seen by the crawl, on %s', (target) => {
  let server: TestServer;
  let root: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    const token = await server.login();
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

  /** The folder ETag of each path (Depth 0: a folder's own entry, not a listing of it). */
  const etags = async (paths: string[]) => {
    const out: Record<string, string> = {};
    for (const at of paths) {
      const res = await fetch(`${server.url}/remote.php/dav/files/${ADMIN.username}${at}`, {
        method: 'PROPFIND',
        headers: { authorization: basicAuth(ADMIN.username, ADMIN.password), depth: '0' },
        body: '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>',
      });
      expect(res.status, at).toBe(207);
      out[at] = /<D:getetag>([^<]*)<\/D:getetag>/.exec(await res.text())?.[1] ?? '';
    }
    return out;
  };
  const crawl = async () => {
    const { search, vfs, folderEtags } = server.built.services;
    const mount = (await vfs.allMounts()).find((m) => m.path === '/local');
    await search.crawl(mount!);
    await folderEtags.flush();
  };
  const FOLDERS = ['/', '/local/', '/local/deep/', '/local/deep/er/', '/local/other/'];

  it('gives the folder and every folder above it a new ETag when a file is added, changed or removed on disk', async () => {
    mkdirSync(path.join(root, 'deep/er'), { recursive: true });
    mkdirSync(path.join(root, 'other'), { recursive: true });
    writeFileSync(path.join(root, 'deep/er/known.txt'), 'known\n');
    await crawl();
    const first = await etags(FOLDERS);
    // Nothing changed: a crawl changes no ETag.
    await crawl();
    expect(await etags(FOLDERS)).toEqual(first);

    const changedAbove = (before: Record<string, string>, after: Record<string, string>) =>
      FOLDERS.filter((at) => before[at] !== after[at]);
    writeFileSync(path.join(root, 'deep/er/added.txt'), 'added behind the back\n');
    await crawl();
    const added = await etags(FOLDERS);
    expect(changedAbove(first, added)).toEqual(['/', '/local/', '/local/deep/', '/local/deep/er/']);

    writeFileSync(path.join(root, 'deep/er/known.txt'), 'known, and edited with a longer text\n');
    await crawl();
    const edited = await etags(FOLDERS);
    expect(changedAbove(added, edited)).toEqual(['/', '/local/', '/local/deep/', '/local/deep/er/']);

    unlinkSync(path.join(root, 'deep/er/added.txt'));
    await crawl();
    const removed = await etags(FOLDERS);
    expect(changedAbove(edited, removed)).toEqual(['/', '/local/', '/local/deep/', '/local/deep/er/']);
  });

  it.skipIf(!existsSync(NEXTCLOUDCMD))(
    'nextcloudcmd picks up a file written on disk at its next sync after the crawl',
    async () => {
      const work = mkdtempSync(path.join(tmpdir(), 'clipnest-crawl-'));
      try {
        const local = path.join(work, 'sync');
        mkdirSync(local);
        const first = await nextcloudcmd(local, server.url);
        expect(first.code, first.output.slice(-3000)).toBe(0);
        expect(existsSync(path.join(local, 'deep/er/known.txt'))).toBe(true);

        writeFileSync(path.join(root, 'deep/er/behind.txt'), 'written on the disk directly\n');
        await crawl();
        const second = await nextcloudcmd(local, server.url);
        expect(second.code, second.output.slice(-3000)).toBe(0);
        expect(readFileSync(path.join(local, 'deep/er/behind.txt'), 'utf8')).toBe('written on the disk directly\n');
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
