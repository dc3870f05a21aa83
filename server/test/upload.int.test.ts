import { request } from 'node:http';
import { Permission, type ApiKeyView, type FileView, type StorageConfigView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { liveMemoryGrowth } from './support/liveMemory.js';
import {
  countFiles,
  createS3Config,
  filesUnder,
  localRoot,
  rawGet,
  setMaxUpload,
  startS3rver,
  upload,
  type S3rverHandle,
} from './support/fileShares.js';

/** A multipart body sent with Transfer-Encoding: chunked (no Content-Length), like a streaming client. */
function chunkedUpload(server: TestServer, token: string, bytes: number): Promise<{ status: number; body: string }> {
  const boundary = '----clipnestboundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const url = new URL(`${server.url}/api/upload`);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const chunk = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        if (!req.write(chunk.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(tail);
    };
    pump();
  });
}

describe.each(dbTargets)('POST /api/upload on %s', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3rverHandle;
  let s3Config: StorageConfigView;
  beforeAll(async () => {
    [server, s3] = await Promise.all([startTestServer(target), startS3rver()]);
    token = await server.login();
    s3Config = await createS3Config(server, token, s3);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('streams a file into the default local storage and records the share', async () => {
    const res = await upload(server, 'hello world', { token, filename: 'hello.txt', type: 'text/plain' });
    expect(res.status).toBe(201);
    expectEnvelope(res.body, 201);
    const file = res.body.data!;
    expect(file).toMatchObject({
      filename: 'hello.txt',
      mimetype: 'text/plain',
      size: 11,
      type: 'text',
      has_password: false,
      max_views: 0,
      views: 0,
      expires_at: null,
      provider_type: 'local',
      remark: '',
      link: `/file/${file.slug}`,
    });
    expect(file.slug).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(filesUnder(localRoot(server))).toContain(file.storage_path);
    const down = await rawGet(server, `/api/file-download/${file.slug}`);
    expect(down.text).toBe('hello world');
  });

  it('takes every optional field (spec §7 names)', async () => {
    const res = await upload(server, '# title', {
      token,
      filename: 'notes.md',
      type: 'text/plain',
      fields: {
        slug: 'my-notes_1',
        path: 'docs/2026',
        remark: 'a remark',
        password: 'pw-123',
        expires_in: '24',
        max_views: '3',
        use_proxy: 'false',
      },
    });
    expect(res.status).toBe(201);
    const file = res.body.data!;
    expect(file).toMatchObject({
      slug: 'my-notes_1',
      mimetype: 'text/markdown',
      type: 'markdown',
      remark: 'a remark',
      has_password: true,
      max_views: 3,
      use_proxy: false,
      path: '/docs/2026',
    });
    expect(file.storage_path.startsWith('docs/2026/')).toBe(true);
    const hours = (Date.parse(file.expires_at!) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThan(24.1);
    expect(JSON.stringify(res.body)).not.toContain('pw-123');
  });

  it('gives every Markdown extension text/markdown and keeps other types', async () => {
    for (const name of ['a.markdown', 'b.MDOWN', 'c.mkd', 'd.mdwn', 'e.mdtxt', 'f.mdtext', 'g.Rmd']) {
      const res = await upload(server, 'x', { token, filename: name, type: 'application/octet-stream' });
      expect(res.body.data?.mimetype, name).toBe('text/markdown');
    }
    const png = await upload(server, 'x', { token, filename: 'p.png', type: 'image/png' });
    expect(png.body.data?.mimetype).toBe('image/png');
    const field = await upload(server, 'x', { token, filename: 'p.bin', fields: { mimetype: 'application/pdf' } });
    expect(field.body.data?.mimetype).toBe('application/pdf');
    const junk = await upload(server, 'x', { token, filename: 'p.bin', fields: { mimetype: 'not a type' } });
    expect(junk.body.data?.mimetype).toBe('application/octet-stream');
  });

  it('keeps unicode file names', async () => {
    const res = await upload(server, 'données', { token, filename: '报告 résumé (final).txt' });
    expect(res.status).toBe(201);
    expect(res.body.data?.filename).toBe('报告 résumé (final).txt');
    const down = await rawGet(server, `/api/file-download/${res.body.data!.slug}`);
    expect(down.headers.get('content-disposition')).toContain(
      `filename*=UTF-8''${encodeURIComponent('报告 résumé (final).txt').replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
    );
  });

  it('uploads into a chosen S3 config', async () => {
    const res = await upload(server, 's3 bytes', { token, fields: { s3_config_id: s3Config.id } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ s3_config_id: s3Config.id, provider_type: 's3', size: 8 });
    expect((await rawGet(server, `/api/file-download/${res.body.data!.slug}`)).text).toBe('s3 bytes');
    const missing = await upload(server, 'x', { token, fields: { s3_config_id: 'doesnotexist' } });
    expect(missing.status).toBe(404);
  });

  it('needs a login with the file permission', async () => {
    const before = await countFiles(server);
    expect((await upload(server, 'x')).status).toBe(401);
    const textOnly = await server.call<ApiKeyView>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'text-only', permissions: Permission.TEXT },
    });
    expect((await upload(server, 'x', { apiKey: textOnly.body.data!.key })).status).toBe(403);
    const fileKey = await server.call<ApiKeyView>('POST', '/api/admin/api-keys', {
      token,
      body: { name: 'file-key', permissions: Permission.FILE_SHARE },
    });
    const ok = await upload(server, 'x', { apiKey: fileKey.body.data!.key });
    expect(ok.status).toBe(201);
    expect(ok.body.data?.created_by).toBe(`apikey:${fileKey.body.data!.id}`);
    expect(await countFiles(server)).toBe(before + 1);
  });

  it('rejects bad slugs, a taken slug (409), bad paths and names, empty files', async () => {
    const before = await countFiles(server);
    const objects = filesUnder(localRoot(server)).length;
    const taken = await upload(server, 'x', { token, fields: { slug: 'taken-one' } });
    expect(taken.status).toBe(201);
    // The built-in config is flagged so clients word its name themselves (issue 35 point 12).
    expect(taken.body.data?.storage_config_builtin).toBe(true);
    const conflict = await upload(server, 'x', { token, fields: { slug: 'taken-one' } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toBe('the link suffix is taken, try another suffix');
    // Clients word it themselves from the field it names (issue 35 point 12).
    expect(conflict.body.kind).toBe('conflict');
    expect((conflict.body.data as unknown as { fields: { path: string }[] }).fields.map((f) => f.path)).toEqual([
      'slug',
    ]);
    for (const slug of ['a b', 'admin', 'x'.repeat(51), 'ünï', '../x', 'a/b', 'a%2eb']) {
      const res = await upload(server, 'x', { token, fields: { slug } });
      expect(res.status, slug).toBe(400);
      expect(res.body.data).toMatchObject({ fields: [expect.objectContaining({ path: 'slug' })] });
    }
    for (const p of ['../up', 'a/../../b', '%2e%2e/x', 'a/%2E%2E/b', '%252e%252e/x', 'a\u0000b', 'a\\..\\b']) {
      const res = await upload(server, 'x', { token, fields: { path: p } });
      expect(res.status, JSON.stringify(p)).toBe(400);
    }
    for (const name of ['..', '%2e%2e', 'a\u0000b.txt']) {
      const res = await upload(server, 'x', { token, filename: name });
      expect(res.status, JSON.stringify(name)).toBe(400);
    }
    const empty = await upload(server, '', { token, filename: 'empty.txt' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('empty');
    for (const bad of <Record<string, string>[]>[
      { expires_in: '-1' },
      { expires_in: '1.5' },
      { max_views: '-1' },
      { max_views: 'many' },
    ]) {
      expect((await upload(server, 'x', { token, fields: bad })).status, JSON.stringify(bad)).toBe(400);
    }
    expect(await countFiles(server)).toBe(before + 1);
    expect(filesUnder(localRoot(server)).length).toBe(objects + 1);
  });

  it('strips directories a client put in the file name', async () => {
    const res = await upload(server, 'x', { token, filename: '../../etc/passwd' });
    expect(res.status).toBe(201);
    expect(res.body.data?.filename).toBe('passwd');
    expect(res.body.data?.storage_path).not.toContain('..');
  });

  it('refuses non-multipart bodies and forms without a file', async () => {
    const json = await server.call('POST', '/api/upload', { token, body: { file: 'x' } });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.append('remark', 'no file');
    const res = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(400);
    const truncated = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      body: '--xx\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=xx' },
    });
    expect(truncated.status).toBe(400);
    // The file part is complete but the form breaks afterwards: the stored file is discarded.
    const before = await countFiles(server);
    const objects = filesUnder(localRoot(server)).length;
    const brokenAfter = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      body: '--xx\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc\r\n--xx\r\nContent-Disposition: form-data; name="remark"\r\n\r\nunfinished',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=xx' },
    });
    expect(brokenAfter.status).toBe(400);
    // A skipped extra file part cut off mid-way is a clean 400 too.
    const brokenExtra = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      body: '--xx\r\nContent-Disposition: form-data; name="other"; filename="b.txt"\r\n\r\nabc',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=xx' },
    });
    expect(brokenExtra.status).toBe(400);
    expect(await countFiles(server)).toBe(before);
    expect(filesUnder(localRoot(server)).length).toBe(objects);
  });

  it('enforces the max upload size before and during the stream: 413, no object, no row', async () => {
    await setMaxUpload(server, token, 100, 'KB');
    const max = await server.call<{ max_upload_size: number }>('GET', '/api/system/max-upload-size');
    expect(max.body.data?.max_upload_size).toBe(100 * 1024);
    const before = await countFiles(server);
    const objects = filesUnder(localRoot(server));

    // Content-Length shows it cannot fit: refused before the body is read.
    const big = await upload(server, new Uint8Array(1024 * 1024), { token });
    expect(big.status).toBe(413);
    expect(big.body.message).toContain('maximum upload size');
    // Within the framing allowance: caught while streaming.
    const slightly = await upload(server, new Uint8Array(100 * 1024 + 10), { token });
    expect(slightly.status).toBe(413);
    // Exactly at the limit is fine.
    const exact = await upload(server, new Uint8Array(100 * 1024), { token });
    expect(exact.status).toBe(201);
    // No Content-Length at all (chunked): caught while streaming, to S3 too.
    const chunked = await chunkedUpload(server, token, 3 * 1024 * 1024);
    expect(chunked.status).toBe(413);

    expect(await countFiles(server)).toBe(before + 1);
    const after = filesUnder(localRoot(server));
    expect(
      after.filter((f) => !objects.includes(f)),
      JSON.stringify({ objects, after }),
    ).toEqual([exact.body.data!.storage_path]);
    const s3Big = await upload(server, new Uint8Array(150 * 1024), { token, fields: { s3_config_id: s3Config.id } });
    expect(s3Big.status).toBe(413);
    await setMaxUpload(server, token, 100, 'MB');
  }, 30_000);

  it('checks a declared size field before reading and refuses a file of another size (local and S3)', async () => {
    const bucketKeys = async () => {
      const xml = await (await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2`)).text();
      return [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]);
    };
    const before = await countFiles(server);
    const objects = filesUnder(localRoot(server));
    const keys = await bucketKeys();
    for (const fields of [{}, { s3_config_id: s3Config.id }] as Record<string, string>[]) {
      const good = await upload(server, 'twelve bytes', { token, fields: { ...fields, size: '12' } });
      expect(good.status).toBe(201);
      expect((await rawGet(server, `/api/file-download/${good.body.data!.slug}`)).text).toBe('twelve bytes');
      for (const size of ['11', '13']) {
        const wrong = await upload(server, 'twelve bytes', { token, fields: { ...fields, size } });
        expect(wrong.status).toBe(400);
        expect(wrong.body.message).toMatch(/announced|size/);
      }
      const bad = await upload(server, 'x', { token, fields: { ...fields, size: '-1' } });
      expect(bad.status).toBe(400);
      // Above the limit by its declaration alone: refused before a byte of the file is stored.
      await setMaxUpload(server, token, 1, 'KB');
      const declared = await upload(server, 'small body', { token, fields: { ...fields, size: String(5 * 1024) } });
      expect(declared.status).toBe(413);
      expect(declared.body.message).toContain('maximum upload size');
      await setMaxUpload(server, token, 100, 'MB');
    }
    expect(await countFiles(server)).toBe(before + 2);
    expect(filesUnder(localRoot(server)).length).toBe(objects.length + 1);
    expect((await bucketKeys()).length).toBe(keys.length + 1);
  });

  it('streams a 200 MB upload and download without holding the file in memory', async () => {
    await setMaxUpload(server, token, 1, 'GB');
    const growth = await liveMemoryGrowth(async () => {
      try {
        const res = await chunkedUpload(server, token, 200 * 1024 * 1024);
        expect(res.status).toBe(201);
        const file = (JSON.parse(res.body) as { data: FileView }).data;
        expect(file.size).toBe(200 * 1024 * 1024);
        const down = await fetch(`${server.url}/api/file-download/${file.slug}`);
        let received = 0;
        for await (const chunk of down.body as unknown as AsyncIterable<Uint8Array>) received += chunk.byteLength;
        expect(received).toBe(200 * 1024 * 1024);
      } finally {
        await setMaxUpload(server, token, 100, 'MB');
      }
    });
    // Client and server share this process: a buffered copy would hold ≥ 200 MB.
    expect(growth).toBeLessThan(64 * 1024 * 1024);
  }, 120_000);

  it('leaves nothing behind when the client disconnects mid-upload', async () => {
    const before = await countFiles(server);
    const objects = filesUnder(localRoot(server));
    await new Promise<void>((resolve) => {
      const url = new URL(`${server.url}/api/upload`);
      const req = request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=zz' },
      });
      req.on('error', () => resolve());
      req.write('--zz\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n');
      const chunk = Buffer.alloc(256 * 1024, 1);
      let n = 0;
      const timer = setInterval(() => {
        req.write(chunk);
        if (++n === 20) {
          clearInterval(timer);
          req.destroy();
          resolve();
        }
      }, 5);
    });
    // The server notices the reset and cleans up asynchronously.
    for (let i = 0; i < 50; i++) {
      if (filesUnder(localRoot(server)).length === objects.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(filesUnder(localRoot(server))).toEqual(objects);
    expect(await countFiles(server)).toBe(before);
  });

  it('enforces the config quota with the sizes in the message', async () => {
    const config = await createS3Config(server, token, s3, { total_capacity: 1000 });
    const first = await upload(server, new Uint8Array(600), { token, fields: { s3_config_id: config.id } });
    expect(first.status).toBe(201);
    const before = await countFiles(server);
    const second = await upload(server, new Uint8Array(500), { token, fields: { s3_config_id: config.id } });
    expect(second.status).toBe(413);
    expect(second.body.message).toMatch(/^insufficient storage/);
    expect(second.body.message).toContain('remaining space 400 B');
    expect(second.body.message).toContain('total capacity 1000 B');
    expect(await countFiles(server)).toBe(before);
    const fits = await upload(server, new Uint8Array(400), { token, fields: { s3_config_id: config.id } });
    expect(fits.status).toBe(201);
    const view = await server.call<StorageConfigView>('GET', `/api/s3-configs/${config.id}`, { token });
    expect(view.body.data?.used_bytes).toBe(1000);

    // Parallel uploads that each fit alone never push the config over its capacity.
    const race = await createS3Config(server, token, s3, { total_capacity: 1000 });
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        upload(server, new Uint8Array(600), { token, fields: { s3_config_id: race.id } }),
      ),
    );
    expect(results.filter((r) => r.status === 201).length).toBeLessThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 201)) expect(r.body.message).toMatch(/^insufficient storage/);
    const raced = await server.call<StorageConfigView>('GET', `/api/s3-configs/${race.id}`, { token });
    expect(raced.body.data?.used_bytes).toBeLessThanOrEqual(1000);
  });

  it('stores sizes above 2^31 as numbers (bigint columns)', async () => {
    const res = await upload(server, 'x', { token });
    const id = res.body.data!.id;
    await server.built.database.db.updateTable('files').set({ size: 5_000_000_000 }).where('id', '=', id).execute();
    const got = await server.call<FileView>('GET', `/api/files/${id}`, { token });
    expect(got.body.data?.size).toBe(5_000_000_000);
  });
});
