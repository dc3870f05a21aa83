// The ftp storage type end to end against vsftpd: the config API (fields, 400s naming the field, the password
// never echoed and encrypted at rest), the Test steps, a mount of it through the fs API (unicode names, ranges,
// a streamed copy, move, delete), a server that is down answering 503 with a kind quickly and the mount
// recovering when it returns; and the driver's own parts: TLS modes, walk-out refusal, the client pool.
import type { StorageConfigTestResult, StorageConfigView } from '@clipnest/contract';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FtpDriver } from '../src/storage/ftp/driver.js';
import { StorageError } from '../src/storage/types.js';
import { expectCode, names, streamOf, text } from './support/driverContract.js';
import { fsRaw, fsUpload } from './support/fsApi.js';
import { ADMIN, dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount } from './support/mounts.js';
import { downCheck, type ConfigAt } from './support/unreachableStorage.js';
import { startVsftpd, vsftpdMissing, type Vsftpd } from './support/vsftpd.js';
import { expectLitmusPasses } from './support/webdav.js';

const missing = vsftpdMissing();
const q = encodeURIComponent;

describe.skipIf(missing !== undefined).each(dbTargets)(
  `ftp storage type on %s${missing ? ` (skipped: ${missing})` : ''}`,
  (target) => {
    let server: TestServer;
    let ftp: Vsftpd;
    let token: string;
    let config: StorageConfigView;
    beforeAll(async () => {
      [server, ftp] = await Promise.all([startTestServer(target), startVsftpd()]);
      token = await server.login();
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await ftp?.stop();
    });

    const create = (body: Record<string, unknown>) =>
      server.call<StorageConfigView>('POST', '/api/s3-configs', { token, body });
    const fields = (body: { data?: unknown }) =>
      ((body.data as { fields?: Array<{ path: string }> } | undefined)?.fields ?? []).map((f) => f.path);

    it('refuses bad input with a 400 naming the field', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{}, 'host'],
        [{ host: 'ftp://example.com' }, 'host'],
        [{ host: 'example.com/path' }, 'host'],
        [{ host: '127.0.0.1', port: 70000 }, 'port'],
        [{ host: '127.0.0.1', port: '21' }, 'port'],
        [{ host: '127.0.0.1', tls: 'maybe' }, 'tls'],
        [{ host: '127.0.0.1', tls_insecure: 'yes' }, 'tls_insecure'],
        [{ host: '169.254.169.254' }, 'host'],
      ];
      for (const [body, field] of cases) {
        const res = await create({ storage_type: 'ftp', name: 'f', ...body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(fields(res.body), JSON.stringify(body)).toContain(field);
      }
      const foreign = await create({ storage_type: 'ftp', name: 'f', host: '127.0.0.1', bucket: 'b' });
      expect(foreign.status).toBe(400);
      expect(JSON.stringify(foreign.body)).toContain('bucket');
    });

    it('creates a config: the password is write-only and encrypted at rest; edits keep it', async () => {
      const res = await create({
        storage_type: 'ftp',
        name: 'ftp box',
        host: ftp.host,
        port: ftp.port,
        username: ftp.username,
        password: 'secret ftp pass ✓',
        tls: 'none',
        default_folder: 'pub/shares',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      config = res.body.data!;
      expect(config).toMatchObject({
        storage_type: 'ftp',
        host: ftp.host,
        port: ftp.port,
        tls: 'none',
        username: ftp.username,
        tls_insecure: false,
        has_secret: true,
        secret_access_key_masked: '••••',
      });
      expect(JSON.stringify(config)).not.toContain('secret ftp pass');
      const row = await server.built.database.db
        .selectFrom('storage_configs')
        .select(['secret_encrypted', 'options_json', 'endpoint'])
        .where('id', '=', config.id)
        .executeTakeFirstOrThrow();
      expect(row.secret_encrypted).not.toContain('secret ftp pass');
      expect(row.secret_encrypted).not.toBe('');
      expect(JSON.parse(row.options_json)).toEqual({ tls: 'none' });
      const edited = await server.call<StorageConfigView>('PUT', `/api/s3-configs/${config.id}`, {
        token,
        body: { port: ftp.port, password: '' },
      });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect(edited.body.data).toMatchObject({ has_secret: true, host: ftp.host, port: ftp.port, tls: 'none' });
      const after = await server.built.database.db
        .selectFrom('storage_configs')
        .select('secret_encrypted')
        .where('id', '=', config.id)
        .executeTakeFirstOrThrow();
      expect(after.secret_encrypted).toBe(row.secret_encrypted);
      const s3Field = await server.call('PUT', `/api/s3-configs/${config.id}`, { token, body: { endpoint_url: 'x' } });
      expect(s3Field.status).toBe(400);
    });

    it('Test connects, writes, reads, lists and deletes a probe in the default folder, each with its latency', async () => {
      const res = await server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${config.id}/test`, { token });
      expect(res.status).toBe(200);
      expect(res.body.data?.success, JSON.stringify(res.body.data)).toBe(true);
      expect(res.body.data?.steps.map((s) => s.step)).toEqual(['connect', 'write', 'read', 'list', 'delete']);
      for (const step of res.body.data!.steps) expect(Number.isInteger(step.latency_ms)).toBe(true);
      expect(existsSync(path.join(ftp.root, 'shares'))).toBe(true);
    });

    it('a TLS mode the server does not speak fails the Test at connect, with the reason', async () => {
      const wrong = await create({
        storage_type: 'ftp',
        name: 'wrong tls',
        host: ftp.host,
        port: ftp.port,
        tls: 'implicit',
      });
      expect(wrong.status).toBe(201);
      const started = Date.now();
      const res = await server.call<StorageConfigTestResult>('POST', `/api/s3-configs/${wrong.body.data!.id}/test`, {
        token,
      });
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(res.body.data?.success).toBe(false);
      expect(res.body.data?.steps).toHaveLength(1);
      expect(res.body.data?.steps[0]).toMatchObject({ step: 'connect', success: false });
      expect(res.body.data?.steps[0]?.message).toBeTruthy();
    }, 30_000);

    it('a mount of it works through the fs API: upload, list, range, streamed copy, move, delete', async () => {
      await createMount(server, token, { path: '/ftp', storage_config_id: config.id });
      const admin = { token };
      const name = 'pub/dossier été/报告 #1 + 50%.txt';
      const up = await fsUpload(server, admin, 'hello ftp', {
        filename: 'x.txt',
        after: { path: `/ftp/${name}`, use_multipart: 'false' },
      });
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      expect(readFileSync(path.join(ftp.root, 'dossier été', '报告 #1 + 50%.txt'), 'utf8')).toBe('hello ftp');
      const listed = await server.call<{ items: Array<{ name: string }> }>(
        'GET',
        `/api/fs/list?path=${q('/ftp/pub/dossier été')}`,
        { token },
      );
      expect(listed.body.data?.items.map((i) => i.name)).toEqual(['报告 #1 + 50%.txt']);
      const range = await fsRaw(server, `/api/fs/download?path=${q(`/ftp/${name}`)}`, admin, { range: 'bytes=6-' });
      expect(range.status).toBe(206);
      expect(new TextDecoder().decode(range.bytes)).toBe('ftp');
      const copy = await server.call('POST', '/api/fs/batch-copy', {
        token,
        body: { items: [{ sourcePath: '/ftp/pub/dossier été', targetPath: '/ftp/pub/copies' }] },
      });
      expect(copy.status, JSON.stringify(copy.body)).toBe(202);
      const copied = path.join(ftp.root, 'copies', '报告 #1 + 50%.txt');
      for (let i = 0; i < 100 && !existsSync(copied); i++) await new Promise((r) => setTimeout(r, 100));
      expect(readFileSync(copied, 'utf8')).toBe('hello ftp');
      const move = await server.call('POST', '/api/fs/rename', {
        token,
        body: { oldPath: '/ftp/pub/copies', newPath: '/ftp/pub/moved' },
      });
      expect(move.status, JSON.stringify(move.body)).toBeLessThan(300);
      expect(existsSync(path.join(ftp.root, 'moved', '报告 #1 + 50%.txt'))).toBe(true);
      const rm = await server.call('DELETE', '/api/fs/batch-remove', {
        token,
        body: { paths: ['/ftp/pub/dossier été', '/ftp/pub/moved'] },
      });
      expect(rm.status).toBe(200);
      expect(existsSync(path.join(ftp.root, 'dossier été'))).toBe(false);
      expect(existsSync(path.join(ftp.root, 'moved'))).toBe(false);
    });

    it.skipIf(!existsSync('/usr/bin/litmus'))(
      'litmus passes every suite on a mount of the ftp type',
      async () => {
        const litmus = await create({
          storage_type: 'ftp',
          name: 'ftp litmus',
          host: ftp.host,
          port: ftp.port,
          username: ftp.username,
          password: ftp.password,
          tls: 'none',
        });
        expect(litmus.status, JSON.stringify(litmus.body)).toBe(201);
        await createMount(server, token, { path: '/ftplitmus', storage_config_id: litmus.body.data!.id });
        // Anonymous vsftpd writes only below /pub: litmus makes its collection there.
        await expectLitmusPasses(`${server.url}/dav/ftplitmus${ftp.ftpRoot}/`, ADMIN.username, ADMIN.password);
      },
      300_000,
    );

    const configAt: ConfigAt = (port, name) => ({ storage_type: 'ftp', name, host: '127.0.0.1', port, tls: 'none' });
    it('a server that is down answers 503 with a kind within 15 s', () =>
      downCheck(server, token, configAt, 'ftpdown'));

    it('a mount recovers when its server comes back (pooled clients dropped, not reused dead)', async () => {
      await createMount(server, token, { path: '/ftpflaky', storage_config_id: config.id, cache_ttl: 0 });
      const list = () => server.call('GET', '/api/fs/list?path=%2Fftpflaky%2Fpub&refresh=true', { token });
      expect((await list()).status).toBe(200);
      await ftp.pause();
      try {
        const started = Date.now();
        const res = await list();
        expect(Date.now() - started).toBeLessThan(15_000);
        expect([502, 503]).toContain(res.status);
        expect((res.body as { kind?: string }).kind).toBeTruthy();
      } finally {
        await ftp.resume();
      }
      expect((await list()).status).toBe(200);
    }, 45_000);
  },
);

describe.skipIf(missing !== undefined)(`ftp driver${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let plain: Vsftpd;
  let explicit: Vsftpd;
  let implicit: Vsftpd;
  beforeAll(async () => {
    [plain, explicit, implicit] = await Promise.all([
      startVsftpd(),
      startVsftpd({ tls: 'explicit' }),
      startVsftpd({ tls: 'implicit' }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([plain?.stop(), explicit?.stop(), implicit?.stop()]);
  });

  const driverOf = (server: Vsftpd, extra: Partial<ConstructorParameters<typeof FtpDriver>[0]> = {}) =>
    new FtpDriver({
      host: server.host,
      port: server.port,
      username: server.username,
      password: server.password,
      tls: server.tls,
      tlsInsecure: true,
      root: server.ftpRoot,
      ...extra,
    });

  it('TLS modes: explicit and implicit work; a self-signed certificate is refused unless allowed', async () => {
    for (const server of [explicit, implicit]) {
      const driver = driverOf(server);
      try {
        await driver.write('tls.txt', streamOf(`over ${server.tls}`));
        expect(await text((await driver.read('tls.txt')).stream)).toBe(`over ${server.tls}`);
      } finally {
        await driver.close();
      }
      const strict = driverOf(server, { tlsInsecure: false });
      try {
        await expectCode(strict.stat(''), 'denied');
      } finally {
        await strict.close();
      }
    }
    // vsftpd here requires TLS once it offers it: a plain login is refused.
    const cleartext = driverOf(explicit, { tls: 'none' });
    try {
      const err = await cleartext.stat('').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StorageError);
      expect(['denied', 'io']).toContain((err as StorageError).code);
    } finally {
      await cleartext.close();
    }
  }, 30_000);

  it('no path leaves the root: .. and absolute paths are refused before reaching the server', async () => {
    writeFileSync(path.join(plain.root, '..', 'outside.txt'), 'not yours');
    const driver = driverOf(plain);
    try {
      for (const bad of [
        '../outside.txt',
        '/outside.txt',
        'a/../../outside.txt',
        '%2e%2e/outside.txt',
        'a\r\nDELE x',
      ]) {
        await expectCode(driver.read(bad), 'invalid_path');
        await expectCode(driver.stat(bad), 'invalid_path');
        await expectCode(driver.write(bad, streamOf('x')), 'invalid_path');
        await expectCode(driver.remove(bad, { recursive: true }), 'invalid_path');
        await expectCode(driver.move('x', bad), 'invalid_path');
      }
      expect((await driver.list('')).entries.map((e) => e.name)).not.toContain('outside.txt');
      expect(readFileSync(path.join(plain.root, '..', 'outside.txt'), 'utf8')).toBe('not yours');
    } finally {
      await driver.close();
    }
  });

  it('names: unicode, spaces, #, %, + and 255-byte names round-trip', async () => {
    const driver = driverOf(plain);
    try {
      const long = `${'é'.repeat(126)}abc`; // 255 bytes
      expect(Buffer.byteLength(long)).toBe(255);
      const all = ['a b c.txt', '#hash%25+plus.txt', '文件 ✓.txt', long];
      for (const name of all) await driver.write(`names/${name}`, streamOf(name));
      expect((await names(driver, 'names')).sort()).toEqual([...all].sort());
      for (const name of all) expect(await text((await driver.read(`names/${name}`)).stream)).toBe(name);
    } finally {
      await driver.close();
    }
  });

  it('a big listing, read as its lines arrive, has every entry once (multi-byte names across chunk edges)', async () => {
    const dir = path.join(plain.root, 'big');
    mkdirSync(dir);
    const want = Array.from({ length: 3000 }, (_, i) => `${i} 文件 é ✓ ${'x'.repeat(i % 40)}.txt`);
    for (const name of want) writeFileSync(path.join(dir, name), name);
    const driver = driverOf(plain);
    try {
      const got = await names(driver, 'big');
      expect(got.length).toBe(want.length);
      expect([...got].sort()).toEqual([...want].sort());
    } finally {
      await driver.close();
    }
  });

  it('parallel reads and a listing each take a pooled client; clients are reused, not multiplied', async () => {
    const driver = driverOf(plain, { maxClients: 3 });
    try {
      const body = 'x'.repeat(256 * 1024);
      for (let i = 0; i < 4; i++) await driver.write(`pool/f${i}.txt`, streamOf(body));
      const reads = await Promise.all([0, 1, 2, 3].map((i) => driver.read(`pool/f${i}.txt`)));
      const [contents, listing] = await Promise.all([
        Promise.all(reads.map((r) => text(r.stream))),
        driver.list('pool'),
      ]);
      expect(contents.every((c) => c === body)).toBe(true);
      expect(listing.entries.map((e) => e.name)).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt']);
      expect(driver.pool.size).toBeGreaterThanOrEqual(2);
      expect(driver.pool.size).toBeLessThanOrEqual(3);
      // A range stops after its bytes; the connection it used is dropped, the next read still works.
      const r = await driver.read('pool/f0.txt', { range: { start: 10, end: 19 } });
      expect(await text(r.stream)).toBe('x'.repeat(10));
      expect(await text((await driver.read('pool/f1.txt', { range: { suffix: 5 } })).stream)).toBe('xxxxx');
    } finally {
      await driver.close();
    }
  });
});
