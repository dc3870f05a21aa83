import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cloudpasteChecksum, readBackup } from './backupFile.js';
import { decodeCloudpasteSecret } from './cloudpasteSecrets.js';
import { mapPermissions } from './permissions.js';
import { toIso } from './rows.js';

const FIXTURE = fileURLToPath(new URL('../../../../test/fixtures/cloudpaste-1.9.1/full-backup.json', import.meta.url));

describe('CloudPaste backup file', () => {
  it('computes the checksum as CloudPaste does (key-sorted data, first 16 hex of SHA-256)', () => {
    expect(cloudpasteChecksum({ b: [2, { z: 1, a: null }], a: 'x' })).toBe(
      cloudpasteChecksum({ a: 'x', b: [2, { a: null, z: 1 }] }),
    );
    expect(cloudpasteChecksum({ a: 1 })).not.toBe(cloudpasteChecksum({ a: 2 }));
  });

  it('accepts the real 1.9.1 export as is', () => {
    const { backup, warnings } = readBackup(readFileSync(FIXTURE, 'utf8'));
    expect(backup.metadata).toMatchObject({ checksum: 'b11c94e057387a61', schema_version: '34', total_records: 84 });
    expect(warnings).toEqual([]);
  });

  it('names what is wrong', () => {
    expect(() => readBackup('{"metadata": {"version": "1.0"')).toThrow(/truncated/);
    expect(() => readBackup('[]')).toThrow(/not a JSON object/);
    expect(() => readBackup({ metadata: { version: '1.0' } })).toThrow(/no "metadata" and "data"/);
    expect(() => readBackup({ metadata: { version: '9' }, data: {} })).toThrow(/unknown backup version "9"/);
  });
});

describe('CloudPaste values', () => {
  it('decodes encrypted:<mac>:<base64> secrets and refuses junk', () => {
    expect(decodeCloudpasteSecret('encrypted:ZUUp/AwY/cNO6SLM4qZwGqNYVNb0tN8zVs/eO77rhjg=:UzNSVkVS')).toBe('S3RVER');
    expect(decodeCloudpasteSecret('plain-value')).toBe('plain-value');
    expect(decodeCloudpasteSecret('encrypted:x:%%%')).toBeUndefined();
  });

  it('reads both time formats as ISO UTC', () => {
    expect(toIso('2026-11-24 07:09:28')).toBe('2026-11-24T07:09:28.000Z');
    expect(toIso('2026-11-24T07:09:28.434Z')).toBe('2026-11-24T07:09:28.434Z');
    expect(toIso('tomorrow')).toBeUndefined();
  });

  it('maps permission bits name by name', () => {
    expect(mapPermissions(5).permissions).toBe(1);
    expect(mapPermissions(778).permissions).toBe(2 | 256 | 512);
    expect(mapPermissions(196864).permissions).toBe(256 | 65536 | 131072);
    expect(mapPermissions(16).notes.join()).toMatch(/unknown permission bits 16/);
  });
});
