// Direct uploads into a mount (/api/fs/multipart/*, /api/fs/presign) are recorded as upload sessions, like the
// file shares' own, so the stale-upload sweep (DirectUploadService.sweep, 24 h without a touch) aborts an
// abandoned one: on local storage (staging under .clipnest-multipart) and on S3. The S3 half needs moto:
// s3rver has no AbortMultipartUpload / ListMultipartUploads, so there the sweep could not be observed.
import type { FsEntryView, FsMultipartInit, FsPresignResult } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulatorConfig } from './support/fileShares.js';
import type { Auth } from './support/fsApi.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { createMount, mountableLocalConfig } from './support/mounts.js';
import { motoAvailable, startMoto, type S3Emulator } from './support/s3Emulator.js';
import { MiB, testBytes } from './support/uploads.js';

const q = (path: string) => encodeURIComponent(path);
const HOUR = 3600_000;
const withMoto = motoAvailable();
if (!withMoto) {
  console.warn('fsUploadSweep: moto is not installed, the S3 half is skipped (s3rver cannot abort or list uploads)');
}

describe.each(dbTargets)('fs direct uploads are swept when abandoned (%s)', (target) => {
  let server: TestServer;
  let admin: Auth;
  let token: string;
  let moto: S3Emulator | undefined;

  beforeAll(async () => {
    server = await startTestServer(target);
    token = await server.login();
    admin = { token };
    await createMount(server, token, { path: '/local', storage_config_id: await mountableLocalConfig(server, token) });
    if (withMoto) {
      moto = await startMoto({ bucket: 'fs-sweep' });
      const config = await createEmulatorConfig(server, token, moto);
      await createMount(server, token, { path: '/s3', storage_config_id: config.id });
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await moto?.stop();
  });

  const call = <T>(method: string, path: string, body?: unknown) => server.call<T>(method, path, { ...admin, body });
  const sessions = async () =>
    (await server.built.database.db.selectFrom('upload_sessions').select(['kind', 'upload_id']).execute()).filter(
      (row) => row.kind.startsWith('fs-'),
    );
  const uploadsUnder = async (path: string) => {
    const res = await call<{ uploads: Array<{ uploadId: string }> }>('POST', '/api/fs/multipart/list-uploads', {
      path,
    });
    expect(res.status, res.body.message).toBe(200);
    return res.body.data!.uploads.map((u) => u.uploadId);
  };
  const init = async (path: string, fileSize: number) => {
    const res = await call<FsMultipartInit>('POST', '/api/fs/multipart/init', { path, fileSize });
    expect(res.status, res.body.message).toBe(200);
    return res.body.data!;
  };
  const localPart = async (path: string, uploadId: string, bytes: Uint8Array) => {
    const res = await fetch(
      `${server.url}/api/fs/multipart/part?path=${q(path)}&uploadId=${q(uploadId)}&partNumber=1`,
      {
        method: 'PUT',
        body: bytes,
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(res.status).toBe(200);
    return res.headers.get('etag')!;
  };

  it('local: an abandoned multipart upload is aborted by the sweep, one still receiving parts is kept', async () => {
    const abandoned = await init('/local/sweep/abandoned.bin', 2 * MiB);
    await localPart('/local/sweep/abandoned.bin', abandoned.uploadId, testBytes(1000));
    const fresh = await init('/local/sweep/fresh.bin', 2 * MiB);
    expect((await sessions()).map((s) => s.upload_id).sort()).toEqual([abandoned.uploadId, fresh.uploadId].sort());
    expect((await uploadsUnder('/local/sweep')).sort()).toEqual([abandoned.uploadId, fresh.uploadId].sort());

    server.clock.advance(23 * HOUR);
    await localPart('/local/sweep/fresh.bin', fresh.uploadId, testBytes(1000, 2)); // touches `fresh`
    server.clock.advance(2 * HOUR);
    expect(await server.built.services.directUploads.sweep()).toBe(1);

    expect(await uploadsUnder('/local/sweep')).toEqual([fresh.uploadId]);
    const parts = await call('POST', '/api/fs/multipart/list-parts', {
      path: '/local/sweep/abandoned.bin',
      uploadId: abandoned.uploadId,
    });
    expect(parts.status).toBe(404);
    expect((await sessions()).map((s) => s.upload_id)).toEqual([fresh.uploadId]);

    // Completed and aborted uploads leave no session behind.
    const etag = await localPart('/local/sweep/fresh.bin', fresh.uploadId, testBytes(1000, 3));
    const done = await call<FsEntryView>('POST', '/api/fs/multipart/complete', {
      path: '/local/sweep/fresh.bin',
      uploadId: fresh.uploadId,
      parts: [{ PartNumber: 1, ETag: etag }],
    });
    expect(done.status, done.body.message).toBe(201);
    const other = await init('/local/sweep/other.bin', 10);
    expect(await sessions()).toHaveLength(1);
    expect(
      (await call('POST', '/api/fs/multipart/abort', { path: '/local/sweep/other.bin', uploadId: other.uploadId }))
        .status,
    ).toBe(200);
    expect(await sessions()).toEqual([]);
  });

  it.skipIf(!withMoto)(
    'S3 (moto): an abandoned multipart upload is aborted by the sweep; presign sessions end at commit',
    async () => {
      const bytes = testBytes(5 * MiB + 10, 4);
      const abandoned = await init('/s3/sweep/abandoned.bin', bytes.length);
      const put = await fetch(abandoned.presignedUrls[0]!.url, { method: 'PUT', body: bytes.subarray(0, 5 * MiB) });
      expect(put.status).toBe(200);
      expect(await uploadsUnder('/s3/sweep')).toEqual([abandoned.uploadId]);
      // The orphan sweep leaves an upload a session owns alone, however old.
      server.clock.advance(25 * HOUR);
      const orphanReport = await server.built.services.tempSweep.sweep();
      expect(orphanReport.abortedUploads).toEqual([]);
      expect(await uploadsUnder('/s3/sweep')).toEqual([abandoned.uploadId]);
      expect(await server.built.services.directUploads.sweep()).toBe(1);
      expect(await uploadsUnder('/s3/sweep')).toEqual([]);
      expect(await sessions()).toEqual([]);

      // A presigned PUT is recorded too; its commit ends the session (the sweep would only forget it: the object
      // in a mount is the user's file).
      const small = testBytes(100, 5);
      const presign = await call<FsPresignResult>('POST', '/api/fs/presign', {
        path: '/s3/sweep/p.bin',
        fileSize: 100,
      });
      expect(presign.status, presign.body.message).toBe(200);
      expect((await sessions()).map((s) => s.kind)).toEqual(['fs-presign']);
      const putSmall = await fetch(presign.body.data!.presignedUrl, {
        method: 'PUT',
        body: small,
        headers: { 'content-type': presign.body.data!.contentType },
      });
      expect(putSmall.status).toBe(200);
      const commit = await call('POST', '/api/fs/presign/commit', { targetPath: '/s3/sweep/p.bin', fileSize: 100 });
      expect(commit.status, commit.body.message).toBe(201);
      expect(await sessions()).toEqual([]);
    },
    60_000,
  );
});
