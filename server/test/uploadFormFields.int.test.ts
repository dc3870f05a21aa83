// POST /api/upload with the options anywhere in the form (issue 16 point 1): curl, ShareX and most
// scripts send the file part first. Every option after the file is stored; a bad or unknown field
// anywhere is a 400 naming it, with no object, no row and no spooled temp file left.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { FileView, StorageConfigView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadSpoolDir } from '../src/http/uploadForm.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { formParts, trickle } from './support/slowClient.js';
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

const run = promisify(execFile);

type Form = { fields?: Record<string, string>; after?: Record<string, string> };

/** Every object key in the emulator's bucket. */
async function bucketKeys(s3: S3rverHandle): Promise<string[]> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  try {
    const out = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    return (out.Contents ?? []).map((o) => o.Key ?? '').sort();
  } finally {
    client.destroy();
  }
}

function spooled(server: TestServer): string[] {
  const dir = uploadSpoolDir(path.resolve(localRoot(server), '..', '..'));
  return existsSync(dir) ? readdirSync(dir) : [];
}

describe.each(dbTargets)('form upload fields in any order on %s', (target) => {
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

  /** Runs `send` and checks that it left no row, no object (local and S3) and no spooled file. */
  async function expectNothingStored(send: () => Promise<{ status: number; body: { message: string } }>) {
    const rows = await countFiles(server);
    const local = filesUnder(localRoot(server));
    const remote = await bucketKeys(s3);
    const res = await send();
    expect(await countFiles(server)).toBe(rows);
    expect(filesUnder(localRoot(server))).toEqual(local);
    expect(await bucketKeys(s3)).toEqual(remote);
    expect(spooled(server)).toEqual([]);
    return res;
  }

  it('stores every option sent after the file, the location ones included', async () => {
    const res = await upload(server, 'after the file', {
      token,
      filename: 'late.bin',
      after: {
        s3_config_id: s3Config.id,
        path: 'late/dir',
        size: '14',
        mimetype: 'text/plain',
        slug: `late-${target}`,
        remark: 'options last',
        password: 'pw-after',
        expires_in: '1',
        max_views: '2',
        use_proxy: 'true',
      },
    });
    expect(res.status).toBe(201);
    const file = res.body.data!;
    expect(file).toMatchObject({
      slug: `late-${target}`,
      mimetype: 'text/plain',
      size: 14,
      remark: 'options last',
      has_password: true,
      max_views: 2,
      use_proxy: true,
      s3_config_id: s3Config.id,
      provider_type: 's3',
    });
    // In the storage's share area, out of every mount's reach (issue 34 point 2).
    expect(file.storage_path.startsWith('.clipnest-shares/late/dir/')).toBe(true);
    expect(file.path).toBe('/late/dir');
    const expiresIn = Date.parse(file.expires_at!) - Date.now();
    expect(expiresIn).toBeGreaterThan(3500_000);
    expect(expiresIn).toBeLessThanOrEqual(3600_000);
    expect(await bucketKeys(s3)).toContain(file.storage_path);
    expect(spooled(server)).toEqual([]);
    // The password really protects it.
    expect((await rawGet(server, `/api/file-download/${file.slug}`)).status).toBe(401);
    const down = await rawGet(server, `/api/file-download/${file.slug}?password=pw-after`);
    expect(down.text).toBe('after the file');
  });

  it('streams straight through when the location fields came first and still takes the options after', async () => {
    const res = await upload(server, 'streamed', {
      token,
      filename: 'streamed.txt',
      fields: { s3_config_id: '', path: 'early', size: '8' },
      after: { password: 'pw-late', expires_in: '2', remark: 'late remark' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ has_password: true, remark: 'late remark', provider_type: 'local' });
    expect(res.body.data!.storage_path.startsWith('early/')).toBe(true);
    expect(res.body.data!.expires_at).not.toBeNull();
  });

  it('honours options after the file as curl -F sends them', async () => {
    const file = path.join(localRoot(server), '..', 'curl-source.txt');
    writeFileSync(file, 'from curl');
    const { stdout } = await run('curl', [
      '-sS',
      '-H',
      `authorization: Bearer ${token}`,
      '-F',
      `file=@${file}`,
      '-F',
      'password=p-curl',
      '-F',
      'expires_in=1',
      `${server.url}/api/upload`,
    ]);
    const body = JSON.parse(stdout) as { code: number; data: FileView };
    expect(body.code).toBe(201);
    expect(body.data.has_password).toBe(true);
    expect(body.data.expires_at).not.toBeNull();
    expect(spooled(server)).toEqual([]);
  });

  it.each([
    ['an unknown field after the file', { after: { pasword: 'typo' } }, 'pasword'],
    ['an unknown field before the file', { fields: { colour: 'red' } }, 'colour'],
    ['an invalid expiry after the file', { after: { expires_in: 'soon' } }, 'expires_in'],
    [
      'an invalid password after a streamed file',
      { fields: { s3_config_id: '', path: '', size: '5' }, after: { password: 'x'.repeat(500) } },
      'password',
    ],
    ['an unknown storage after the file', { after: { s3_config_id: 'nope' } }, '"nope" not found'],
    ['a bad path after the file', { after: { path: '../up' } }, 'path'],
    ['a wrong size after the file', { after: { size: '99' } }, 'size'],
    ['a field given twice', { fields: { remark: 'a' }, after: { remark: 'b' } }, 'remark'],
  ] satisfies [string, Form, string][])('refuses %s, naming it, with nothing stored', async (_label, form, field) => {
    const res = await expectNothingStored(() =>
      upload(server, 'bytes', { token, filename: 'x.bin', ...(form as Form) }),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.message).toContain(field);
  });

  it('stops spooling a file first sent without Content-Length at the max upload size, with nothing stored', async () => {
    await setMaxUpload(server, token, 1, 'KB');
    try {
      const form = formParts({}, 'big.bin');
      const res = await expectNothingStored(() =>
        trickle(`${server.url}/api/upload`, {
          headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
          head: form.head,
          tail: form.tail,
          chunks: 8,
          chunkBytes: 1024,
          gapMs: 0,
        }).then((r) => ({ status: r.status, body: JSON.parse(r.body) as { message: string } })),
      );
      expect(res.status).toBe(413);
      expect(res.body.message).toContain('maximum upload size');
    } finally {
      await setMaxUpload(server, token, 100, 'MB');
    }
  });

  it('refuses a taken slug sent after the file with nothing stored', async () => {
    await upload(server, 'first', { token, fields: { slug: `taken-${target}` } });
    const res = await expectNothingStored(() =>
      upload(server, 'second', { token, after: { slug: `taken-${target}` } }),
    );
    expect(res.status).toBe(409);
  });
});
