import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Config, startS3rver, type S3rverHandle } from './support/fileShares.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, mountableLocalConfig } from './support/mounts.js';

/** Runs cadaver with `commands` on stdin; credentials come from a .netrc in a throwaway HOME. */
function cadaver(url: string, home: string, commands: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = execFile(
      '/usr/bin/cadaver',
      [url],
      { env: { ...process.env, HOME: home } },
      (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
    );
    child.stdin?.end(`${commands.join('\n')}\nquit\n`);
  });
}

/**
 * A cadaver session: put, lock, a second client refused with 423, unlock, get back; on a local mount and on
 * an S3 (s3rver) mount with the default mount settings (302_redirect: cadaver does not follow redirects).
 */
describe.each(dbTargets.slice(0, 1))('cadaver over WebDAV on %s', (target) => {
  let server: TestServer;
  let s3: S3rverHandle;
  let home: string;

  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    const token = await server.login();
    const localId = await mountableLocalConfig(server, token);
    await createMount(server, token, { path: '/local', storage_config_id: localId });
    await createMount(server, token, { path: '/s3', storage_config_id: (await createS3Config(server, token, s3)).id });
    home = mkdtempSync(path.join(tmpdir(), 'cadaver-'));
    writeFileSync(path.join(home, '.netrc'), `machine 127.0.0.1 login ${ADMIN.username} password ${ADMIN.password}\n`, {
      mode: 0o600,
    });
    writeFileSync(path.join(home, 'note.txt'), 'from cadaver\n');
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it.each(['local', 's3'])(
    'puts, locks (another client gets 423), unlocks and gets a file on the %s mount',
    async (mount) => {
      const url = `${server.url}/dav/${mount}/`;
      const auth = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
      const put = await cadaver(url, home, [`put ${path.join(home, 'note.txt')} note.txt`]);
      expect(put).toMatch(/Uploading .*succeeded/);
      // One session holds the lock while another client writes.
      const session = execFile('/usr/bin/cadaver', [url], { env: { ...process.env, HOME: home } });
      let output = '';
      session.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      session.stdin?.write('lock note.txt\n');
      while (!/Locking .*(succeeded|failed)/.test(output)) await new Promise((r) => setTimeout(r, 50));
      expect(output).toMatch(/Locking .*succeeded/);
      const other = await fetch(`${url}note.txt`, { method: 'PUT', headers: { authorization: auth }, body: 'other' });
      expect(other.status).toBe(423);
      session.stdin?.end('unlock note.txt\nquit\n');
      await new Promise((r) => session.on('close', r));
      expect(output).toMatch(/Unlocking .*succeeded/);
      const after = await fetch(`${url}note.txt`, { method: 'PUT', headers: { authorization: auth }, body: 'after' });
      expect(after.status).toBe(204);
      const back = path.join(home, `back-${mount}.txt`);
      const get = await cadaver(url, home, [`get note.txt ${back}`]);
      expect(get).toMatch(/Downloading .*succeeded/);
      expect(readFileSync(back, 'utf8')).toBe('after');
    },
    60_000,
  );
});
