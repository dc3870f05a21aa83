// Long uploads (issue 16 point 5): an upload body may take as long as it needs while bytes keep coming
// (UPLOAD_IDLE_TIMEOUT), other bodies keep a total limit (REQUEST_TIMEOUT), and a download whose client
// stops reading is closed after DOWNLOAD_IDLE_TIMEOUT. The clocks are shortened to seconds here.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FileView } from '@clipnest/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadSpoolDir } from '../src/http/uploadForm.js';
import { dbTargets, startTestServer, type TestServer } from './support/harness.js';
import { countFiles, filesUnder, localRoot, upload } from './support/fileShares.js';
import { formParts, pausedDownload, trickle } from './support/slowClient.js';

const IDLE_S = 1.5;
const TOTAL_S = 1;

/** Waits (bounded) until `check` holds: the server cleans up after a dropped connection on its own time. */
async function eventually(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`still not true after 10 s: ${what}`);
}

describe.each(dbTargets)('upload and download timeouts on %s', (target) => {
  for (const sendfile of ['true', 'false']) {
    describe(`LOCAL_SENDFILE=${sendfile}`, () => {
      let server: TestServer;
      let token: string;
      beforeAll(async () => {
        server = await startTestServer(target, {
          UPLOAD_IDLE_TIMEOUT: String(IDLE_S),
          REQUEST_TIMEOUT: String(TOTAL_S),
          DOWNLOAD_IDLE_TIMEOUT: String(IDLE_S),
          LOCAL_SENDFILE: sendfile,
        });
        token = await server.login();
      });
      afterAll(async () => {
        await server?.close();
      });

      const auth = () => ({ authorization: `Bearer ${token}` });
      const spoolDir = () => uploadSpoolDir(path.resolve(localRoot(server), '..', '..'));

      it.each([
        ['streamed', { s3_config_id: '', path: 'slow', size: String(30 * 1024) }],
        ['spooled', {}],
      ])('completes a %s upload that trickles past the total timeout without idling', async (_mode, fields) => {
        const form = formParts(fields, 'slow.bin');
        // 30 chunks 100 ms apart: about 3 s in all, twice REQUEST_TIMEOUT, never idle for IDLE_S.
        const res = await trickle(`${server.url}/api/upload`, {
          headers: { ...auth(), 'content-type': form.contentType },
          head: form.head,
          tail: form.tail,
          chunks: 30,
          chunkBytes: 1024,
          gapMs: 100,
        });
        expect(res.status, res.body).toBe(201);
        expect((JSON.parse(res.body) as { data: FileView }).data.size).toBe(30 * 1024);
      });

      it('still ends other request bodies after REQUEST_TIMEOUT in total', async () => {
        const res = await trickle(`${server.url}/api/paste`, {
          headers: { ...auth(), 'content-type': 'application/json', 'content-length': '100000' },
          head: Buffer.from('{"content":"'),
          tail: Buffer.from('"}'),
          chunks: 40,
          chunkBytes: 10,
          gapMs: 100,
        });
        expect(res.status).toBe(0);
      });

      it.each([
        ['streamed', { s3_config_id: '', path: 'stall', size: String(64 * 1024) }],
        ['spooled', {}],
      ])('aborts a %s upload that stalls past the idle timeout, writing nothing', async (_mode, fields) => {
        const rows = await countFiles(server);
        const before = filesUnder(localRoot(server));
        const form = formParts(fields, 'stall.bin');
        const res = await trickle(`${server.url}/api/upload`, {
          headers: { ...auth(), 'content-type': form.contentType },
          head: form.head,
          tail: form.tail,
          chunks: 64,
          chunkBytes: 1024,
          gapMs: 20,
          stallAfter: 8,
        });
        expect(res.status).toBe(0);
        await eventually(
          () => JSON.stringify(filesUnder(localRoot(server))) === JSON.stringify(before),
          'no object or temp file',
        );
        await eventually(() => !existsSync(spoolDir()) || readdirSync(spoolDir()).length === 0, 'no spooled file');
        expect(await countFiles(server)).toBe(rows);
      });

      it('closes a download whose client stops reading', async () => {
        const size = 48 * 1024 * 1024;
        const res = await upload(server, new Uint8Array(size), { token, filename: 'big.bin' });
        expect(res.status).toBe(201);
        const received = await pausedDownload(
          `${server.url}/api/file-download/${res.body.data!.slug}`,
          {},
          IDLE_S * 1000 * 3,
        );
        expect(received).toBeLessThan(size);
      });
    });
  }
});
