// The driver contract suite's targets (local, s3rver, moto) and helpers, shared by its test files
// (driver.int.test.ts, driver.multipart.int.test.ts).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  LocalDriver,
  S3Driver,
  StorageError,
  type ByteRange,
  type StorageDriver,
  type StorageErrorCode,
} from '../../src/storage/index.js';
import { FtpDriver } from '../../src/storage/ftp/driver.js';
import { WebDavDriver } from '../../src/storage/webdav/driver.js';
import { SftpDriver } from '../../src/storage/sftp/driver.js';
import { apacheMissing, startApacheDav } from './apacheDav.js';
import { startVsftpd, vsftpdMissing, type VsftpdTls } from './vsftpd.js';
import { sshdMissing, startSshd } from './sshd.js';
import { RcloneDriver } from '../../src/storage/rclone/driver.js';
import { rcloneMissing, rcloneSectionFor, RCLONE_BIN } from './rclone.js';
import { motoAvailable, startMoto, startS3rver, type S3Emulator } from './s3Emulator.js';

export type Lack = 'listParts' | 'abort' | 'listUploads' | 'partChecks' | 'unknownUpload' | 'listDuringWrite';

export interface Target {
  name: string;
  /** Why the whole target is skipped, if it is. */
  skip?: string;
  /** Operations the backend lacks, with the reason; their tests are skipped and 'unsupported' is asserted. */
  lacks: Partial<Record<Lack, string>>;
  /** Why the driver has no multipart capability (the vfs streams uploads through the server instead). */
  noMultipart?: string;
  /** The S3 targets (presign, key prefix). */
  s3?: boolean;
  start(): Promise<{ driver: StorageDriver; stop(): Promise<void>; root?: string }>;
}

const S3RVER_LACKS =
  's3rver 3.7.1 does not implement ListParts, AbortMultipartUpload or ListMultipartUploads (TOOLING.md)';
const S3RVER_NO_PART_CHECKS = 's3rver 3.7.1 completes an upload without checking part ETags or part numbers';
const S3RVER_UNKNOWN_UPLOAD = 's3rver 3.7.1 answers 500 InternalError, not NoSuchUpload, for an unknown upload id';
const MOTO_UNKNOWN_UPLOAD = 'moto 5.2.1 answers an HTML 500 to CompleteMultipartUpload with an unknown upload id';

function s3Target(name: 's3rver' | 'moto', start: () => Promise<S3Emulator>, skip?: string): Target {
  return {
    name,
    s3: true,
    ...(skip ? { skip } : {}),
    lacks:
      name === 's3rver'
        ? {
            listParts: S3RVER_LACKS,
            abort: S3RVER_LACKS,
            listUploads: S3RVER_LACKS,
            partChecks: S3RVER_NO_PART_CHECKS,
            unknownUpload: S3RVER_UNKNOWN_UPLOAD,
          }
        : { unknownUpload: MOTO_UNKNOWN_UPLOAD },
    async start() {
      const emulator = await start();
      // A key prefix ("default folder") so the suite also proves nothing escapes it.
      const driver = new S3Driver(emulator.driverOptions('contract-suite'));
      return {
        driver,
        async stop() {
          await driver.close();
          await emulator.stop();
        },
      };
    },
  };
}

const FTP_NO_MULTIPART = 'FTP has no multipart uploads: the vfs streams uploads through the server';

function ftpTarget(tls: VsftpdTls): Target {
  return {
    name: `ftp (vsftpd, TLS ${tls})`,
    lacks: {},
    noMultipart: FTP_NO_MULTIPART,
    ...(vsftpdMissing() ? { skip: vsftpdMissing() } : {}),
    async start() {
      const server = await startVsftpd({ tls });
      // A folder below the login is the root: the suite also proves nothing escapes it.
      const setup = new FtpDriver({
        host: server.host,
        port: server.port,
        tls,
        tlsInsecure: true,
        root: server.ftpRoot,
      });
      await setup.mkdir('contract-suite');
      await setup.close();
      const driver = new FtpDriver({
        host: server.host,
        port: server.port,
        username: server.username,
        password: server.password,
        tls,
        tlsInsecure: true,
        root: `${server.ftpRoot}/contract-suite`,
      });
      return {
        driver,
        async stop() {
          await driver.close();
          await server.stop();
        },
      };
    },
  };
}

export const targets: Target[] = [
  {
    name: 'local',
    lacks: {},
    async start() {
      const root = mkdtempSync(path.join(tmpdir(), 'clipnest-driver-'));
      return {
        driver: new LocalDriver({ root }),
        root,
        stop: async () => rmSync(root, { recursive: true, force: true }),
      };
    },
  },
  s3Target('s3rver', () => startS3rver()),
  s3Target(
    'moto',
    () => startMoto(),
    motoAvailable()
      ? undefined
      : 'moto unavailable: python3 -m moto.server cannot run here (CI has it) or CLIPNEST_NO_MOTO=1',
  ),
  {
    name: 'webdav (Apache mod_dav)',
    lacks: {},
    ...(apacheMissing() ? { skip: apacheMissing() } : {}),
    async start() {
      const server = await startApacheDav();
      // The endpoint's own folder is the root: the suite also proves nothing escapes it.
      const url = `${server.url}contract-suite/`;
      await fetch(url, {
        method: 'MKCOL',
        headers: { authorization: `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}` },
      });
      const driver = new WebDavDriver({ endpoint: url, username: server.username, password: server.password });
      return {
        driver,
        async stop() {
          await driver.close();
          await server.stop();
        },
      };
    },
  },
  ftpTarget('none'),
  ftpTarget('explicit'),
  {
    name: 'sftp (OpenSSH internal-sftp)',
    lacks: {},
    noMultipart: 'SFTP has no multipart uploads: the vfs streams an upload through the server into one write',
    ...(sshdMissing() ? { skip: sshdMissing() } : {}),
    async start() {
      const server = await startSshd();
      // A folder below the login's files is the root: the suite also proves nothing escapes it.
      const driver = new SftpDriver({
        host: server.host,
        port: server.port,
        username: server.username,
        privateKey: server.privateKey,
        hostKeySha256: server.hostKeySha256,
        root: server.root,
      });
      return {
        driver,
        async stop() {
          await driver.close();
          await server.stop();
        },
      };
    },
  },
  {
    name: 'rclone (serve webdav, its webdav backend on Apache mod_dav)',
    lacks: {
      listDuringWrite:
        'rclone 1.60 serve webdav breaks a folder listing off with a 500 while a PUT into that folder is in progress',
    },
    ...(apacheMissing() || rcloneMissing() ? { skip: apacheMissing() ?? rcloneMissing() } : {}),
    async start() {
      const server = await startApacheDav();
      await fetch(`${server.url}contract-suite/`, {
        method: 'MKCOL',
        headers: { authorization: `Basic ${Buffer.from(`${server.username}:${server.password}`).toString('base64')}` },
      });
      const tmpDir = mkdtempSync(path.join(tmpdir(), 'clipnest-rclone-'));
      const driver = new RcloneDriver({
        id: 'contract',
        section: rcloneSectionFor(server, 'contract-suite/'),
        tmpDir,
        binary: RCLONE_BIN,
      });
      return {
        driver,
        async stop() {
          await driver.close();
          await server.stop();
          rmSync(tmpDir, { recursive: true, force: true });
        },
      };
    },
  },
];

// ---------- helpers ----------

export function streamOf(data: string | Uint8Array): ReadableStream<Uint8Array> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** A generated stream of `total` bytes in 1 MiB chunks, hashing what it produces (never one buffer). */
export function generated(
  total: number,
  chunk = 1024 * 1024,
): { stream: ReadableStream<Uint8Array>; digest(): string } {
  const hash = createHash('sha256');
  let sent = 0;
  let counter = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= total) {
          controller.close();
          return;
        }
        const n = Math.min(chunk, total - sent);
        const buf = Buffer.allocUnsafe(n);
        buf.fill(counter++ % 251);
        buf.writeUInt32BE(counter, 0);
        hash.update(buf);
        sent += n;
        controller.enqueue(buf);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, digest: () => hash.digest('hex') };
}

export async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

export async function digestOf(stream: ReadableStream<Uint8Array>): Promise<{ bytes: number; hash: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, hash: hash.digest('hex') };
}

export async function expectCode(promise: Promise<unknown>, code: StorageErrorCode): Promise<void> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected StorageError('${code}')`).toBeInstanceOf(StorageError);
  expect((err as StorageError).code).toBe(code);
}

export async function names(driver: StorageDriver, dir: string): Promise<string[]> {
  const all: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await driver.list(dir, cursor ? { cursor } : {});
    all.push(...page.entries.map((e) => (e.isDir ? `${e.name}/` : e.name)));
    cursor = page.cursor;
  } while (cursor);
  return all;
}

export async function readRange(driver: StorageDriver, p: string, range: ByteRange) {
  const r = await driver.read(p, { range });
  return { ...r, body: await text(r.stream) };
}

/** What a started target gives its tests. */
export interface TargetContext {
  readonly driver: StorageDriver;
  /** The local target's root directory (undefined for the others). */
  readonly localRoot: string | undefined;
  /** A fresh directory name per test. */
  dir(): string;
}

/**
 * One `driver contract: <target>` describe per target (skipped with the reason when the target cannot run): the
 * target starts before its tests and stops after them.
 */
export function describeTargets(body: (target: Target, ctx: TargetContext) => void): void {
  for (const target of targets) {
    const suite = target.skip ? describe.skip : describe;
    const title = target.skip
      ? `driver contract: ${target.name} (skipped: ${target.skip})`
      : `driver contract: ${target.name}`;
    suite(title, () => {
      let started: Awaited<ReturnType<Target['start']>> | undefined;
      let n = 0;
      const ctx: TargetContext = {
        get driver() {
          return started!.driver;
        },
        get localRoot() {
          return started?.root;
        },
        dir: () => `t${++n}`,
      };
      beforeAll(async () => {
        started = await target.start();
      }, 90_000);
      afterAll(async () => {
        await started?.stop();
      }, 30_000);
      body(target, ctx);
    });
  }
}
