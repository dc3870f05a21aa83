// Secrets: no secret ever reaches a log line or a backup in clear. The real server runs in a child process with
// LOG_LEVEL=debug (its most verbose), everything it writes (stdout and stderr) going to a file; the test logs in
// (right and wrong passwords), uses WebDAV Basic (admin and API key), API keys (right, wrong, another holder's),
// password-protected pastes and file shares (body, query string, preview tokens), storage configs (create, test,
// a failing test), a presigned upload, a password change and a full backup export. Then it looks for every
// secret in the log and in the backup file.
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../support/childServer.js';
import { ADMIN } from '../support/harness.js';
import { freePort, startS3rver, type S3Emulator } from '../support/s3Emulator.js';

const S3_SECRET = 'S3-secret-Zq7pW2mN4vB8xK1';
const ENCRYPTION_KEY = 'log-test-encryption-key-Hf83Lq0Zt5';
const WRONG_LOGIN = 'wrong-Guess-7731-ab';
const PASTE_PASSWORD = 'paste-Pw-91xq-secret';
const FILE_PASSWORD = 'file-Pw-55kz-secret';
const NEW_ADMIN_PASSWORD = 'N3w-Passw0rd-after-change';
const WRONG_KEY = 'cnk_0123456789abcdefWRONGKEY0123456789';

const basicOf = (user: string, password: string) => Buffer.from(`${user}:${password}`).toString('base64');

describe('no secret in any log line or backup', () => {
  let dataDir: string;
  let logFile: string;
  let logFd: number;
  let server: ChildServer;
  let s3: S3Emulator;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'clipnest-logs-'));
    logFile = path.join(dataDir, 'server.log');
    logFd = openSync(logFile, 'a');
    s3 = await startS3rver({ bucket: 'log-bucket', cors: true });
    server = await startChildServer({ DATA_DIR: dataDir, LOG_LEVEL: 'debug', ENCRYPTION_KEY }, { output: logFd });
  });
  afterAll(async () => {
    await server?.kill();
    await s3?.stop();
    if (logFd !== undefined) closeSync(logFd);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function call(
    method: string,
    url: string,
    init: { auth?: string; body?: unknown; raw?: string | FormData } = {},
  ) {
    const headers: Record<string, string> = method === 'PROPFIND' ? { depth: '1' } : {};
    if (init.auth) headers.authorization = init.auth;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(server.url + url, {
      method,
      headers,
      body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
    const text = await res.text();
    let data: Record<string, unknown> = {};
    try {
      data = (JSON.parse(text) as { data?: Record<string, unknown> }).data ?? {};
    } catch {
      // not JSON (raw pastes, downloads, WebDAV)
    }
    return { status: res.status, data, text };
  }

  it('the log and the backup hold none of the secrets the requests carried', async () => {
    const secrets = new Map<string, string>([
      ['admin password', ADMIN.password],
      ['wrong login password', WRONG_LOGIN],
      ['paste password', PASTE_PASSWORD],
      ['file share password', FILE_PASSWORD],
      ['storage secret key', S3_SECRET],
      ['encryption key', ENCRYPTION_KEY],
      ['new admin password', NEW_ADMIN_PASSWORD],
      ['wrong API key', WRONG_KEY],
      ['admin Basic header', basicOf(ADMIN.username, ADMIN.password)],
      ['wrong Basic header', basicOf(ADMIN.username, WRONG_LOGIN)],
    ]);
    const wrong = await call('POST', '/api/admin/login', { body: { username: ADMIN.username, password: WRONG_LOGIN } });
    expect(wrong.status).toBe(401);
    const login = await call('POST', '/api/admin/login', { body: ADMIN });
    const token = login.data.token as string;
    secrets.set('admin token', token);
    const bearer = `Bearer ${token}`;

    // API keys: one used (header and WebDAV Basic), one belonging to another holder, one unknown.
    const keys: string[] = [];
    for (const name of ['used key', 'other holder']) {
      const res = await call('POST', '/api/admin/api-keys', { auth: bearer, body: { name, permissions: 204547 } });
      expect(res.status, res.text).toBe(201);
      keys.push(res.data.key as string);
    }
    secrets.set('API key', keys[0]!);
    secrets.set("another holder's API key", keys[1]!);
    secrets.set('API key Basic header', basicOf(keys[0]!, keys[0]!));
    expect((await call('GET', '/api/test/api-key', { auth: `ApiKey ${keys[0]}` })).status).toBe(200);
    expect((await call('GET', '/api/test/api-key', { auth: `ApiKey ${WRONG_KEY}` })).status).toBe(401);
    expect((await call('GET', `/api/pastes?api_key=${keys[1]}`)).status).toBe(401);

    // WebDAV Basic on a local mount: admin, API key, wrong password.
    mkdirSync(path.join(dataDir, 'storage', 'mounted', 'logs'), { recursive: true });
    const local = await call('POST', '/api/s3-configs', {
      auth: bearer,
      body: { name: 'logs', storage_type: 'local', root_path: path.join(dataDir, 'storage', 'mounted', 'logs') },
    });
    expect(local.status, local.text).toBe(201);
    const mount = await call('POST', '/api/mount/create', {
      auth: bearer,
      body: { name: 'logs', path: '/logs', storage_config_id: local.data.id, cache_ttl: 0 },
    });
    expect(mount.status, mount.text).toBe(201);
    const adminBasic = `Basic ${basicOf(ADMIN.username, ADMIN.password)}`;
    const keyBasic = `Basic ${basicOf(keys[0]!, keys[0]!)}`;
    expect((await call('PUT', '/dav/logs/a.txt', { auth: adminBasic, raw: 'x' })).status).toBe(201);
    expect((await call('PROPFIND', '/dav/logs/', { auth: adminBasic })).status).toBe(207);
    expect((await call('PUT', '/dav/logs/b.txt', { auth: keyBasic, raw: 'y' })).status).toBe(201);
    expect(
      (await call('PROPFIND', '/dav/logs/', { auth: `Basic ${basicOf(ADMIN.username, WRONG_LOGIN)}` })).status,
    ).toBe(401);

    // A password-protected paste: wrong and right password, in the body and in the query string.
    const paste = await call('POST', '/api/paste', {
      auth: bearer,
      body: { content: 'behind a password', password: PASTE_PASSWORD },
    });
    expect(paste.status, paste.text).toBe(201);
    const slug = paste.data.slug as string;
    expect((await call('POST', `/api/paste/${slug}`, { body: { password: 'nope-wrong-1' } })).status).toBe(401);
    expect((await call('POST', `/api/paste/${slug}`, { body: { password: PASTE_PASSWORD } })).status).toBe(200);
    expect((await call('GET', `/api/raw/${slug}?password=${encodeURIComponent(PASTE_PASSWORD)}`)).status).toBe(200);

    // A password-protected file share: verify (preview token), download with the password and with the token.
    const form = new FormData();
    form.append('password', FILE_PASSWORD);
    form.append('file', new Blob(['protected bytes']), 'secret.txt');
    const share = await call('POST', '/api/upload', { auth: bearer, raw: form });
    expect(share.status, share.text).toBe(201);
    const fileSlug = share.data.slug as string;
    const verified = await call('POST', `/api/public/files/${fileSlug}/verify`, { body: { password: FILE_PASSWORD } });
    expect(verified.status, verified.text).toBe(200);
    const accessToken = verified.data.access_token as string;
    secrets.set('file preview token', accessToken);
    expect(
      (await call('GET', `/api/file-download/${fileSlug}?password=${encodeURIComponent(FILE_PASSWORD)}`)).status,
    ).toBe(200);
    expect((await call('GET', `/api/file-download/${fileSlug}?token=${accessToken}`)).status).toBe(200);
    expect((await call('GET', `/api/file-view/${fileSlug}?password=wrong-file-pw`)).status).toBe(401);

    // Storage configs: create, test (works), one pointing nowhere (its test fails and is logged).
    const s3Body = {
      provider: 'minio',
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: 'us-east-1',
      access_key_id: 'LOGTESTACCESSKEY',
      secret_access_key: S3_SECRET,
      path_style: true,
    };
    const config = await call('POST', '/api/s3-configs', { auth: bearer, body: { name: 'log s3', ...s3Body } });
    expect(config.status, config.text).toBe(201);
    const configId = config.data.id as string;
    expect((await call('POST', `/api/s3-configs/${configId}/test`, { auth: bearer })).status).toBe(200);
    const dead = await call('POST', '/api/s3-configs', {
      auth: bearer,
      body: { name: 'dead s3', ...s3Body, endpoint: `http://127.0.0.1:${await freePort()}` },
    });
    expect(dead.status, dead.text).toBe(201);
    expect((await call('POST', `/api/s3-configs/${dead.data.id as string}/test`, { auth: bearer })).status).toBe(200);
    // A mount on the dead backend: listing fails (logged as an error with the driver's message).
    await call('POST', '/api/mount/create', {
      auth: bearer,
      body: { name: 'dead', path: '/dead', storage_config_id: dead.data.id, cache_ttl: 0 },
    });
    expect((await call('GET', '/api/fs/list?path=%2Fdead', { auth: bearer })).status).toBeGreaterThanOrEqual(500);

    // A presigned upload (s3rver checks presigned signatures: its own credentials): the signature is a secret.
    const signed = await call('POST', '/api/s3-configs', {
      auth: bearer,
      body: { name: 'presign s3', ...s3Body, access_key_id: s3.accessKeyId, secret_access_key: s3.secretAccessKey },
    });
    expect(signed.status, signed.text).toBe(201);
    const presign = await call('POST', '/api/s3/presign', {
      auth: bearer,
      body: { s3_config_id: signed.data.id, filename: 'direct.bin', size: 5, mimetype: 'application/octet-stream' },
    });
    expect(presign.status, presign.text).toBe(200);
    const uploadUrl = new URL(presign.data.upload_url as string);
    const signature = uploadUrl.searchParams.get('X-Amz-Signature');
    expect(signature).toBeTruthy();
    secrets.set('presigned signature', signature!);
    const put = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'hello',
    });
    expect(put.status).toBe(200);
    const commit = await call('POST', '/api/s3/commit', {
      auth: bearer,
      body: { file_id: presign.data.file_id, size: 5, etag: put.headers.get('etag') },
    });
    expect(commit.status, commit.text).toBe(201);

    // A full backup, then a password change (current password wrong once, then right).
    const backup = await call('POST', '/api/admin/backup/create', { auth: bearer, body: { backup_type: 'full' } });
    expect(backup.status).toBe(200);
    expect(
      (
        await call('POST', '/api/admin/change-password', {
          auth: bearer,
          body: { currentPassword: WRONG_LOGIN, newPassword: NEW_ADMIN_PASSWORD },
        })
      ).status,
    ).toBe(401);
    const changed = await call('POST', '/api/admin/change-password', {
      auth: bearer,
      body: { currentPassword: ADMIN.password, newPassword: NEW_ADMIN_PASSWORD },
    });
    expect(changed.status, changed.text).toBe(200);

    // The stored password hashes are secrets too.
    const db = new SQLite(path.join(dataDir, 'clipnest.db'), { readonly: true });
    try {
      const hashes = [
        ...db.prepare('select password_hash as h from admins').all(),
        ...db.prepare('select password_hash as h from pastes where password_hash is not null').all(),
        ...db.prepare('select password_hash as h from files where password_hash is not null').all(),
      ] as { h: string }[];
      expect(hashes.length).toBeGreaterThanOrEqual(3);
      for (const [i, { h }] of hashes.entries()) secrets.set(`stored password hash #${i}`, h);
    } finally {
      db.close();
    }
    // Log lines are written asynchronously: a graceful stop writes out the last ones.
    expect(await server.stop()).toBe(0);

    const log = readFileSync(logFile, 'utf8');
    const lines = log.split('\n').filter(Boolean);
    // The log is not empty: the requests above are in it (access lines, the failing storage test's errors).
    expect(lines.length).toBeGreaterThan(30);
    expect(log).toContain('/api/admin/login');
    expect(log).toContain('/api/s3/presign');
    if (process.env.KEEP_LOG) writeFileSync(process.env.KEEP_LOG, log);
    const inLog = [...secrets].filter(([, value]) => log.includes(value)).map(([what]) => what);
    const inBackup = [...secrets]
      .filter(([what]) => !what.startsWith('stored password hash')) // hashes are what a restore needs
      .filter(([, value]) => backup.text.includes(value))
      .map(([what]) => what);
    expect(inLog, `found in the log: ${inLog.join(', ')}`).toEqual([]);
    expect(inBackup, `found in the backup: ${inBackup.join(', ')}`).toEqual([]);
    console.log(
      `[security] secrets: ${secrets.size} secrets looked for in ${lines.length} log lines and a full backup ` +
        `(${backup.text.length} bytes): ${secrets.size * 2} cases tried, ${secrets.size * 2 - inLog.length - inBackup.length} passed`,
    );
  }, 120_000);
});
