import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** A cadaver session: put, lock, a second client refused with 423, unlock, get back. */
describe.each(dbTargets.slice(0, 1))('cadaver over WebDAV on %s', (target) => {
  let server: TestServer;
  let home: string;

  beforeAll(async () => {
    server = await startTestServer(target);
    const token = await server.login();
    const localId = await mountableLocalConfig(server, token);
    await createMount(server, token, { path: '/local', storage_config_id: localId, webdav_policy: 'native_proxy' });
    home = mkdtempSync(path.join(tmpdir(), 'cadaver-'));
    writeFileSync(path.join(home, '.netrc'), `machine 127.0.0.1 login ${ADMIN.username} password ${ADMIN.password}\n`, {
      mode: 0o600,
    });
    writeFileSync(path.join(home, 'note.txt'), 'from cadaver\n');
  });
  afterAll(async () => {
    await server?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('puts, locks (another client gets 423), unlocks and gets a file', async () => {
    const url = `${server.url}/dav/local/`;
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
    const get = await cadaver(url, home, [`get note.txt ${path.join(home, 'back.txt')}`]);
    expect(get).toMatch(/Downloading .*succeeded/);
  }, 60_000);
});
