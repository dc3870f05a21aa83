/** The CloudPaste 1.9.1 fixtures (server/test/fixtures/cloudpaste-1.9.1, copied from the real exports) and helpers to edit and import them. */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CloudpasteImportInput, CloudpasteImportReport } from '@clipnest/contract';
import { cloudpasteChecksum } from '../../src/services/admin/cloudpasteImport/backupFile.js';
import type { S3Emulator } from './s3Emulator.js';
import type { TestServer } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The real CloudPaste 1.9.1 exports kept in the repo (server/test/fixtures), or CLOUDPASTE_FIXTURES. */
export function fixturesDir(): string {
  const candidates = [process.env.CLOUDPASTE_FIXTURES, path.resolve(here, '../fixtures/cloudpaste-1.9.1')].filter(
    (p): p is string => Boolean(p),
  );
  const found = candidates.find((p) => existsSync(path.join(p, 'full-backup.json')));
  if (!found) throw new Error(`CloudPaste fixtures not found (tried ${candidates.join(', ')})`);
  return found;
}

export type CpBackup = {
  metadata: Record<string, unknown> & { tables: Record<string, number> };
  data: Record<string, Record<string, unknown>[]>;
};

export function fixtureText(name: 'full-backup.json' | 'modules-backup.json'): string {
  return readFileSync(path.join(fixturesDir(), name), 'utf8');
}

export function fixture(name: 'full-backup.json' | 'modules-backup.json'): CpBackup {
  return JSON.parse(fixtureText(name)) as CpBackup;
}

/** Recomputes metadata.tables, total_records and checksum after an edit (as CloudPaste would). */
export function reseal(backup: CpBackup): CpBackup {
  backup.metadata.tables = Object.fromEntries(Object.entries(backup.data).map(([t, rows]) => [t, rows.length]));
  backup.metadata.total_records = Object.values(backup.data).reduce((n, rows) => n + rows.length, 0);
  backup.metadata.checksum = cloudpasteChecksum(backup.data);
  return backup;
}

/** The full backup with its S3 config pointed at a running emulator. */
export function fullBackupFor(s3: S3Emulator): CpBackup {
  const backup = fixture('full-backup.json');
  for (const row of backup.data.storage_configs ?? []) {
    if (row.storage_type !== 'S3') continue;
    const config = JSON.parse(String(row.config_json)) as Record<string, unknown>;
    config.endpoint_url = s3.endpoint;
    row.config_json = JSON.stringify(config);
  }
  return reseal(backup);
}

/** Copies the fixture's storage/ to `target` (writable, so the test can remove it). */
export function copyStorage(target: string): void {
  cpSync(path.join(fixturesDir(), 'storage'), target, { recursive: true });
  const fix = (p: string) => {
    const st = statSync(p);
    chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
    if (st.isDirectory()) for (const name of readdirSync(p)) fix(path.join(p, name));
  };
  fix(target);
}

/** Loads every object of the fixture's s3/ into the emulator's bucket at its key. */
export async function loadS3(s3: S3Emulator): Promise<void> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const root = path.join(fixturesDir(), 's3');
  for (const name of readdirSync(root, { recursive: true }) as string[]) {
    const abs = path.join(root, name);
    if (statSync(abs).isDirectory()) continue;
    await client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: name.split(path.sep).join('/'), Body: readFileSync(abs) }),
    );
  }
  client.destroy();
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function importCloudpaste(server: TestServer, token: string | undefined, body: CloudpasteImportInput | unknown) {
  return server.call<CloudpasteImportReport>('POST', '/api/admin/import/cloudpaste', {
    ...(token ? { token } : {}),
    body,
  });
}

/** Created / skipped / not supported per kind, for compact assertions. */
export function counts(report: CloudpasteImportReport) {
  return Object.fromEntries(
    Object.entries(report.kinds).map(([kind, r]) => [
      kind,
      { total: r.total, created: r.created, skipped: r.skipped.length, not_supported: r.not_supported.length },
    ]),
  );
}
