// Resumable multipart uploads for file shares, on s3rver (presigned parts, no ListParts: the server's
// record is the resume source) and on local storage (parts through the server): resume listing,
// complete with a missing part / a wrong ETag, abort, and the 24 h sweep.
import type {
  FileView,
  MultipartInitResult,
  MultipartStatus,
  SignPartsResult,
  StorageConfigView,
} from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTargets, expectEnvelope, startTestServer, type TestServer } from './support/harness.js';
import { countFiles, createEmulatorConfig, createS3Config, rawGet } from './support/fileShares.js';
import { motoAvailable, startMoto, startS3rver, type S3Emulator } from './support/s3Emulator.js';
import { MiB, fileShareKey, md5Hex, sendParts, testBytes } from './support/uploads.js';

// moto (when installed) has ListParts: there the server verifies the record against the backend.
const storages = motoAvailable() ? (['s3rver', 'local', 'moto'] as const) : (['s3rver', 'local'] as const);
type StorageName = 's3rver' | 'local' | 'moto';

describe.each(dbTargets)('multipart upload (%s)', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3Emulator;
  let moto: S3Emulator | undefined;
  const configIds: Record<StorageName, string> = { s3rver: '', local: '', moto: '' };

  beforeAll(async () => {
    s3 = await startS3rver({ bucket: 'multipart', cors: true });
    server = await startTestServer(target);
    token = await server.login();
    const s3Config = await createS3Config(server, token, {
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      close: async () => {},
    });
    configIds.s3rver = s3Config.id;
    const configs = await server.call<{ items: StorageConfigView[] }>('GET', '/api/s3-configs', { token });
    configIds.local = configs.body.data!.items.find((c) => c.storage_type === 'local')!.id;
    if (storages.length === 3) {
      moto = await startMoto({ bucket: 'multipart-moto' });
      configIds.moto = (await createEmulatorConfig(server, token, moto)).id;
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
    await moto?.stop();
  });

  const init = async (storage: StorageName, size: number, extra: Record<string, unknown> = {}) => {
    const res = await server.call<MultipartInitResult>('POST', '/api/upload/multipart/init', {
      token,
      body: { s3_config_id: configIds[storage], filename: 'big.bin', size, ...extra },
    });
    expectEnvelope(res.body, 200);
    return res.body.data!;
  };
  const status = (fileId: string) =>
    server.call<MultipartStatus>('GET', `/api/upload/multipart/parts?file_id=${fileId}`, { token });
  const complete = (body: Record<string, unknown>) =>
    server.call<FileView>('POST', '/api/upload/multipart/complete', { token, body });

  describe.each(storages)('on %s', (storage) => {
    it('uploads in 5 MiB parts, resumes from the recorded parts and completes byte-exact', async () => {
      const bytes = testBytes(12 * MiB + 123, 5);
      const up = await init(storage, bytes.length, { mimetype: 'application/x-test', remark: 'mp' });
      expect(up).toMatchObject({ part_size: 5 * MiB, part_count: 3, presigned_parts: storage !== 'local' });
      // Part 2 goes first, then the "tab closes".
      await sendParts(server, token, up, bytes, [2]);
      const resumed = await status(up.file_id);
      expectEnvelope(resumed.body, 200);
      expect(resumed.body.data!.missing).toEqual([1, 3]);
      expect(resumed.body.data!.parts.map((p) => p.PartNumber)).toEqual([2]);
      // Only the missing ones are sent.
      await sendParts(server, token, up, bytes, resumed.body.data!.missing);
      expect((await status(up.file_id)).body.data!.missing).toEqual([]);
      const done = await complete({ file_id: up.file_id });
      expectEnvelope(done.body, 201);
      expect(done.body.data).toMatchObject({ id: up.file_id, size: bytes.length, filename: 'big.bin', remark: 'mp' });
      const download = await rawGet(server, `/api/file-download/${done.body.data!.slug}`);
      const body =
        download.status === 302
          ? new Uint8Array(await (await fetch(download.headers.get('location')!)).arrayBuffer())
          : download.body;
      expect(body.length).toBe(bytes.length);
      expect(md5Hex(body)).toBe(md5Hex(bytes));
      // The session is gone.
      expect((await status(up.file_id)).status).toBe(404);
    }, 60_000);

    it('refuses to complete with a missing part or a wrong ETag', async () => {
      const before = await countFiles(server);
      const bytes = testBytes(6 * MiB, 6);
      const up = await init(storage, bytes.length);
      expect(up.part_count).toBe(2);
      const etags = await sendParts(server, token, up, bytes, [1]);
      const missing = await complete({ file_id: up.file_id });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toMatch(/no ETag obtained for part\(s\) 2/);
      // An empty ETag in the client's list is also "no ETag obtained".
      const empty = await complete({ file_id: up.file_id, parts: [{ PartNumber: 2, ETag: '' }] });
      expect(empty.status).toBe(400);
      expect(empty.body.message).toMatch(/no ETag obtained/);
      await sendParts(server, token, up, bytes, [2]);
      // The client's list disagrees with what was uploaded.
      const wrong = await complete({
        file_id: up.file_id,
        parts: [
          { PartNumber: 1, ETag: etags.get(1) },
          { PartNumber: 2, ETag: '"ffffffffffffffffffffffffffffffff"' },
        ],
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toMatch(/ETag does not match/);
      expect(await countFiles(server)).toBe(before);
      // A wrong size reported for a part is refused too.
      const badSize = await server.call('POST', '/api/upload/multipart/parts', {
        token,
        body: { file_id: up.file_id, part_number: 1, etag: etags.get(1), size: 10 },
      });
      expect(badSize.status).toBe(400);
      expect(
        (
          await server.call('POST', '/api/upload/multipart/sign-parts', {
            token,
            body: { file_id: up.file_id, part_numbers: [3] },
          })
        ).status,
      ).toBe(400);
      // Still completes with the right parts.
      expect((await complete({ file_id: up.file_id })).status).toBe(201);
    }, 60_000);

    // s3rver neither lists parts nor checks ETags at complete and answers a plain MD5 for the joined
    // object, so a wrong *recorded* ETag cannot be detected there (docs/api/uploads.md); local (and
    // any backend with ListParts) catches it.
    it.skipIf(storage === 's3rver')(
      'an ETag recorded wrong is caught at complete',
      async () => {
        const bytes = testBytes(5 * MiB + 10, 7);
        const up = await init(storage, bytes.length);
        await sendParts(server, token, up, bytes, [1, 2]);
        const forged = await server.call('POST', '/api/upload/multipart/parts', {
          token,
          body: { file_id: up.file_id, part_number: 2, etag: '"00000000000000000000000000000000"' },
        });
        expect(forged.status).toBe(200);
        const res = await complete({ file_id: up.file_id });
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/ETag|part/);
      },
      60_000,
    );

    it('abort ends the upload: no more parts, no complete', async () => {
      const bytes = testBytes(5 * MiB + 1, 8);
      const up = await init(storage, bytes.length);
      await sendParts(server, token, up, bytes, [1]);
      const aborted = await server.call('POST', '/api/upload/multipart/abort', {
        token,
        body: { file_id: up.file_id },
      });
      expectEnvelope(aborted.body, 200);
      expect((await complete({ file_id: up.file_id })).status).toBe(404);
      const sign = await server.call('POST', '/api/upload/multipart/sign-parts', {
        token,
        body: { file_id: up.file_id, part_numbers: [2] },
      });
      expect(sign.status).toBe(404);
      expect(sign.body.message).toMatch(/aborted/);
    }, 60_000);
  });

  it.skipIf(!storages.includes('moto' as never))(
    'resume on a backend with ListParts also counts a part PUT but never reported',
    async () => {
      const bytes = testBytes(5 * MiB + 7, 11);
      const up = await init('moto', bytes.length);
      const signed = await server.call<{ urls: { url: string }[] }>('POST', '/api/upload/multipart/sign-parts', {
        token,
        body: { file_id: up.file_id, part_numbers: [1] },
      });
      const put = await fetch(signed.body.data!.urls[0]!.url, {
        method: 'PUT',
        body: bytes.subarray(0, 5 * MiB) as Uint8Array<ArrayBuffer>,
      });
      expect(put.status).toBe(200);
      const listed = await status(up.file_id);
      expect(listed.body.data!.missing).toEqual([2]);
      expect(listed.body.data!.parts[0]!.ETag).toBe(put.headers.get('etag'));
      await sendParts(server, token, up, bytes, [2]);
      expect((await complete({ file_id: up.file_id })).status).toBe(201);
    },
    60_000,
  );

  // The browser's flow: one sign-parts call reports the parts just PUT (`completed`) and signs the next.
  describe.each(storages.filter((s) => s !== 'local'))('sign-parts with completed parts on %s', (storage) => {
    const signParts = (body: Record<string, unknown>) =>
      server.call<SignPartsResult>('POST', '/api/upload/multipart/sign-parts', { token, body });

    it('records the reported parts before signing; resume lists them; complete is byte-exact', async () => {
      const bytes = testBytes(15 * MiB + 99, 12);
      const up = await init(storage, bytes.length);
      expect(up.part_count).toBe(4);
      const slice = (n: number) => bytes.subarray((n - 1) * up.part_size, Math.min(bytes.length, n * up.part_size));
      const put = async (url: string, n: number) => {
        const res = await fetch(url, { method: 'PUT', body: slice(n) as Uint8Array<ArrayBuffer> });
        expect(res.status).toBe(200);
        return res.headers.get('etag')!;
      };
      // The first call signs a window of parts (the first URL of an upload comes from the SDK, the
      // others from the server's own signer: all must be accepted by the backend).
      const first = await signParts({ file_id: up.file_id, part_numbers: [1, 2, 3] });
      expectEnvelope(first.body, 200);
      expect(first.body.data!.recorded).toBeUndefined();
      const urls = new Map(first.body.data!.urls.map((u) => [u.partNumber, u.url]));
      expect(new Set([...urls.values()]).size).toBe(3);
      const etag1 = await put(urls.get(1)!, 1);
      const etag2 = await put(urls.get(2)!, 2);
      // Report 1 and 2, sign 4.
      const next = await signParts({
        file_id: up.file_id,
        part_numbers: [4],
        completed: [
          { PartNumber: 1, ETag: etag1, size: slice(1).length },
          { partNumber: 2, etag: etag2 },
        ],
      });
      expectEnvelope(next.body, 200);
      expect(next.body.data!.recorded).toEqual([
        { PartNumber: 1, ETag: etag1, size: 5 * MiB },
        { PartNumber: 2, ETag: etag2, size: 5 * MiB },
      ]);
      expect(next.body.data!.urls.map((u) => u.partNumber)).toEqual([4]);
      // The "tab closes" here: the server knows 1 and 2.
      expect((await status(up.file_id)).body.data!.missing).toEqual([3, 4]);
      const etag4 = await put(next.body.data!.urls[0]!.url, 4);
      const etag3 = await put(urls.get(3)!, 3);
      // The last parts: nothing left to sign.
      const last = await signParts({
        file_id: up.file_id,
        completed: [
          { PartNumber: 4, ETag: etag4, size: slice(4).length },
          { PartNumber: 3, ETag: etag3 },
        ],
      });
      expectEnvelope(last.body, 200);
      expect(last.body.data!.urls).toEqual([]);
      expect((await status(up.file_id)).body.data!.missing).toEqual([]);
      const done = await complete({ file_id: up.file_id });
      expectEnvelope(done.body, 201);
      const download = await rawGet(server, `/api/file-download/${done.body.data!.slug}`);
      const body =
        download.status === 302
          ? new Uint8Array(await (await fetch(download.headers.get('location')!)).arrayBuffer())
          : download.body;
      expect(md5Hex(body)).toBe(md5Hex(bytes));
    }, 60_000);

    it('refuses bad reports with a clear 400 and records nothing of that call', async () => {
      const up = await init(storage, 6 * MiB);
      const etag = '"0123456789abcdef0123456789abcdef"';
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ part_numbers: [] }, /at least one part number/],
        [{ completed: [] }, /at least one part number/],
        [{ completed: [{ PartNumber: 1, ETag: etag, size: 10 }] }, /part 1 must be 5242880 bytes, not 10/],
        [{ completed: [{ PartNumber: 2, ETag: '' }] }, /no ETag obtained/],
        [{ completed: [{ PartNumber: 3, ETag: etag }] }, /outside 1..2/],
        [{ completed: [{ ETag: etag }] }, /PartNumber is required/],
        [
          {
            part_numbers: [1],
            completed: [
              { PartNumber: 1, ETag: etag },
              { PartNumber: 2, ETag: '' },
            ],
          },
          /no ETag/,
        ],
      ];
      for (const [body, message] of cases) {
        const res = await signParts({ file_id: up.file_id, ...body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toMatch(message);
      }
      expect((await status(up.file_id)).body.data!.parts).toEqual([]);
      // A part reported twice in one call: the last report wins (one upsert per part, on both databases).
      const signed = await signParts({ file_id: up.file_id, part_numbers: [1] });
      const put = await fetch(signed.body.data!.urls[0]!.url, {
        method: 'PUT',
        body: testBytes(5 * MiB, 13) as Uint8Array<ArrayBuffer>,
      });
      const real = put.headers.get('etag')!;
      const twice = await signParts({
        file_id: up.file_id,
        completed: [
          { PartNumber: 1, ETag: etag },
          { PartNumber: 1, ETag: real },
        ],
      });
      expectEnvelope(twice.body, 200);
      expect((await status(up.file_id)).body.data!.parts).toEqual([{ PartNumber: 1, ETag: real, size: 5 * MiB }]);
      // Another user's upload: the key holder can neither sign nor report.
      const key = await fileShareKey(server, token, 'reporter');
      const foreign = await server.call('POST', '/api/upload/multipart/sign-parts', {
        apiKey: key.key,
        body: { file_id: up.file_id, completed: [{ PartNumber: 2, ETag: etag }] },
      });
      expect(foreign.status).toBe(403);
    }, 60_000);
  });

  it('a part PUT through the server must have the exact part size', async () => {
    const up = await init('local', 6 * MiB);
    const res = await fetch(`${server.url}/api/upload/multipart/part?file_id=${up.file_id}&part_number=2`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
      body: new Uint8Array(10),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/exactly/);
  });

  it('the sweep aborts uploads untouched for 24 hours', async () => {
    const fresh = await init('local', 6 * MiB);
    const stale = await init('s3rver', 6 * MiB);
    server.clock.advance(23 * 3600_000);
    await sendParts(server, token, fresh, testBytes(6 * MiB), [1]); // touches `fresh`
    server.clock.advance(2 * 3600_000);
    const swept = await server.built.services.directUploads.sweep();
    expect(swept).toBeGreaterThanOrEqual(1);
    expect((await status(stale.file_id)).status).toBe(404);
    expect((await status(fresh.file_id)).status).toBe(200);
  }, 60_000);
});
