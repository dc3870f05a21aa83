// Quota at commit (issue 16, point 3): direct uploads (resumable multipart, presigned PUT) are checked
// against the config's capacity again when they are completed/committed, with the object's real size,
// atomically with the insert: parallel commits that each fit alone never pass the capacity together.
import type {
  FileView,
  MultipartInitResult,
  PresignResult,
  SignPartsResult,
  StorageConfigView,
} from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareCounters } from './support/counters.js';
import { createS3Config, upload } from './support/fileShares.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { startS3rver, type S3Emulator } from './support/s3Emulator.js';
import { putBytes, sendParts, testBytes } from './support/uploads.js';

/** Shared by instances of one database: storage secrets are encrypted with it. */
const ENV = { ENCRYPTION_KEY: 'quota-test-encryption-key-0123456789' };
const CAPACITY = 1000;
const PARALLEL = 5;
const SIZE = 50;

describe.each(dbTargets)('quota at commit (%s)', (target) => {
  let server: TestServer;
  let token: string;
  let s3: S3Emulator;

  beforeAll(async () => {
    s3 = await startS3rver({ bucket: 'quota-race' });
    server = await startTestServer(target, ENV);
    token = await server.login();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  /** A config of CAPACITY bytes already holding CAPACITY - 54: room for one 50-byte file, not two. */
  const nearlyFullConfig = async (): Promise<StorageConfigView> => {
    const config = await createS3Config(
      server,
      token,
      { endpoint: s3.endpoint, bucket: s3.bucket, close: async () => {} },
      { total_capacity: CAPACITY, default_folder: `q${Math.random().toString(36).slice(2, 8)}` },
    );
    const filler = await upload(server, testBytes(CAPACITY - 54, 9), {
      token,
      filename: 'filler.bin',
      fields: { s3_config_id: config.id },
    });
    expect(filler.status).toBe(201);
    return config;
  };

  const objectStatus = async (storagePath: string) =>
    (await fetch(`${s3.endpoint}/${s3.bucket}/${storagePath}`, { method: 'HEAD' })).status;

  const usage = async (configId: string) => {
    const res = await server.call<StorageConfigView>('GET', `/api/s3-configs/${configId}`, { token });
    return res.body.data!.used_bytes;
  };

  /** Exactly one commit won; the others were refused as over quota, their objects removed, counters right. */
  const expectOneWinner = async (
    config: StorageConfigView,
    results: Array<{ status: number; message: string; storagePath: string }>,
  ) => {
    const won = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(PARALLEL - 1);
    for (const r of refused) {
      expect(r.status).toBe(413);
      expect(r.message).toMatch(/^insufficient storage/);
      expect(await objectStatus(r.storagePath)).toBe(404);
    }
    expect(await objectStatus(won[0]!.storagePath)).toBe(200);
    expect(await usage(config.id)).toBe(CAPACITY - 54 + SIZE);
    const { counters, truth } = await compareCounters(server.built.database.db);
    expect(counters).toEqual(truth);
    expect(truth.storage[config.id]).toBe(`${CAPACITY - 54 + SIZE}/2`);
  };

  it(`${PARALLEL} parallel multipart uploads of ${SIZE} bytes with 54 left: exactly one completes`, async () => {
    const config = await nearlyFullConfig();
    const inits = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        server.call<MultipartInitResult>('POST', '/api/upload/multipart/init', {
          token,
          body: { s3_config_id: config.id, filename: `part-${i}.bin`, size: SIZE },
        }),
      ),
    );
    // Each fits alone: init (the start-time check) lets every one through.
    for (const init of inits) expect(init.status).toBe(200);
    for (const [i, init] of inits.entries()) await sendParts(server, token, init.body.data!, testBytes(SIZE, i), [1]);
    const completes = await Promise.all(
      inits.map((init) =>
        server.call<FileView>('POST', '/api/upload/multipart/complete', {
          token,
          body: { file_id: init.body.data!.file_id },
        }),
      ),
    );
    await expectOneWinner(
      config,
      completes.map((res, i) => ({
        status: res.status,
        message: res.body.message,
        storagePath: inits[i]!.body.data!.storage_path,
      })),
    );
    // The refused sessions are gone with their objects.
    for (const [i, res] of completes.entries()) {
      if (res.status === 201) continue;
      const again = await server.call('POST', '/api/upload/multipart/complete', {
        token,
        body: { file_id: inits[i]!.body.data!.file_id },
      });
      expect(again.status).toBe(404);
    }
  });

  it(`${PARALLEL} parallel presigned uploads of ${SIZE} bytes with 54 left: exactly one commits`, async () => {
    const config = await nearlyFullConfig();
    const presigns = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        server.call<PresignResult>('POST', '/api/s3/presign', {
          token,
          body: { s3_config_id: config.id, filename: `direct-${i}.bin`, size: SIZE },
        }),
      ),
    );
    for (const p of presigns) expect(p.status).toBe(200);
    for (const [i, p] of presigns.entries()) {
      const put = await putBytes(server, p.body.data!.upload_url, testBytes(SIZE, i + 10), {
        'content-type': p.body.data!.contentType,
      });
      expect(put.status).toBe(200);
    }
    const commits = await Promise.all(
      presigns.map((p) =>
        server.call<FileView>('POST', '/api/s3/commit', { token, body: { file_id: p.body.data!.file_id } }),
      ),
    );
    await expectOneWinner(
      config,
      commits.map((res, i) => ({
        status: res.status,
        message: res.body.message,
        storagePath: presigns[i]!.body.data!.storage_path,
      })),
    );
  });

  // No lock of one process decides: a second instance on the same PostgreSQL schema commits half of them.
  it.runIf(target === 'postgres')('parallel commits spread over two instances: exactly one wins', async () => {
    const other = await startTestServer(target, ENV, { sharedSchema: server.schema });
    try {
      const config = await nearlyFullConfig();
      const instances = Array.from({ length: PARALLEL }, (_, i) => (i % 2 === 0 ? server : other));
      const presigns = await Promise.all(
        instances.map((instance, i) =>
          instance.call<PresignResult>('POST', '/api/s3/presign', {
            token,
            body: { s3_config_id: config.id, filename: `two-${i}.bin`, size: SIZE },
          }),
        ),
      );
      for (const [i, p] of presigns.entries()) {
        expect(p.status).toBe(200);
        await putBytes(server, p.body.data!.upload_url, testBytes(SIZE, i + 20), {
          'content-type': p.body.data!.contentType,
        });
      }
      const commits = await Promise.all(
        instances.map((instance, i) =>
          instance.call<FileView>('POST', '/api/s3/commit', {
            token,
            body: { file_id: presigns[i]!.body.data!.file_id },
          }),
        ),
      );
      await expectOneWinner(
        config,
        commits.map((res, i) => ({
          status: res.status,
          message: res.body.message,
          storagePath: presigns[i]!.body.data!.storage_path,
        })),
      );
    } finally {
      await other.close();
    }
  });

  it('a commit is checked against the real object: other sizes are refused and the object removed', async () => {
    const config = await nearlyFullConfig();
    // Announced 50 (fits), but 200 bytes were PUT (s3rver checks no signature): refused, object gone.
    const p = (
      await server.call<PresignResult>('POST', '/api/s3/presign', {
        token,
        body: { s3_config_id: config.id, filename: 'liar.bin', size: SIZE },
      })
    ).body.data!;
    await putBytes(server, p.upload_url, testBytes(200, 3), { 'content-type': p.contentType });
    const commit = await server.call('POST', '/api/s3/commit', { token, body: { file_id: p.file_id, size: SIZE } });
    expect(commit.status).toBe(400);
    expect(commit.body.message).toMatch(/200 bytes, but 50 were announced/);
    expect(await objectStatus(p.storage_path)).toBe(404);
    expect(await usage(config.id)).toBe(CAPACITY - 54);

    // Multipart: a 40-byte part reported without its size; the joined object (40 bytes) is refused and removed.
    const init = (
      await server.call<MultipartInitResult>('POST', '/api/upload/multipart/init', {
        token,
        body: { s3_config_id: config.id, filename: 'short.bin', size: SIZE },
      })
    ).body.data!;
    const signed = await server.call<SignPartsResult>('POST', '/api/upload/multipart/sign-parts', {
      token,
      body: { file_id: init.file_id, part_numbers: [1] },
    });
    const put = await putBytes(server, signed.body.data!.urls[0]!.url, testBytes(SIZE - 10, 4));
    expect(put.status).toBe(200);
    const reported = await server.call('POST', '/api/upload/multipart/parts', {
      token,
      body: { file_id: init.file_id, part_number: 1, etag: put.etag },
    });
    expect(reported.status).toBe(200);
    const complete = await server.call('POST', '/api/upload/multipart/complete', {
      token,
      body: { file_id: init.file_id },
    });
    expect(complete.status).toBe(400);
    expect(complete.body.message).toMatch(/40 bytes, but 50 were announced/);
    expect(await objectStatus(init.storage_path)).toBe(404);
    const { counters, truth } = await compareCounters(server.built.database.db);
    expect(counters).toEqual(truth);
  });
});
