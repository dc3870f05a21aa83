import {
  createStorageConfigSchema,
  foreignOptionFields,
  localOptionsSchema,
  STORAGE_TYPE_SPECS,
  updateStorageConfigSchema,
} from '@clipnest/contract';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { SecretCipher } from '../security/cipher.js';
import type { StorageDriver } from './types.js';
import { LocalRoots } from './local/localRoots.js';
import { StorageRegistry } from './storageRegistry.js';
import { pickOptions, secretColumns, secretView, STORAGE_TYPE_DEFINITIONS, storageTypeOf } from './storageTypes.js';

const cipher = new SecretCipher('unit-test-key-unit-test-key-0123');
const s3Input = {
  name: 'bucket',
  endpoint: 'http://127.0.0.1:9000',
  bucket: 'b',
  access_key_id: 'AKIA',
  secret_access_key: 'the-secret-value-9876',
};

describe('storage type schemas (contract)', () => {
  it('a create without storage_type is S3, as before local configs existed', () => {
    const parsed = createStorageConfigSchema.parse(s3Input);
    expect(parsed).toMatchObject({ storage_type: 's3', provider: 'other', path_style: false });
  });

  it('a local create takes a root_path and nothing of S3', () => {
    expect(createStorageConfigSchema.parse({ storage_type: 'local', name: 'disk', root_path: '/srv/x' })).toEqual({
      storage_type: 'local',
      name: 'disk',
      root_path: '/srv/x',
      default_folder: '',
      total_capacity: null,
      is_default: false,
    });
    const withS3 = createStorageConfigSchema.safeParse({
      storage_type: 'local',
      name: 'd',
      root_path: '/x',
      bucket: 'b',
    });
    expect(withS3.success).toBe(false);
  });

  it.each([
    ['relative', 'data/files'],
    ['dot-dot', '/srv/share/../etc'],
    ['control character', '/srv/a\u0000b'],
    ['empty', ''],
  ])('a %s root_path is refused naming the field', (_why, root_path) => {
    const result = createStorageConfigSchema.safeParse({ storage_type: 'local', name: 'd', root_path });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain('root_path');
    expect(localOptionsSchema.safeParse({ root_path }).success).toBe(false);
  });

  it('an unknown storage_type names the field', () => {
    const result = createStorageConfigSchema.safeParse({ ...s3Input, storage_type: 'gopher' });
    expect(result.error?.issues[0]).toMatchObject({
      path: ['storage_type'],
      message: expect.stringContaining('local, s3'),
    });
  });

  it('secret fields are declared per type; other types’ fields are foreign', () => {
    expect(STORAGE_TYPE_SPECS.s3.secretFields).toEqual(['secret_access_key']);
    expect(STORAGE_TYPE_SPECS.local.secretFields).toEqual([]);
    expect(foreignOptionFields('local')).toContain('bucket');
    expect(foreignOptionFields('local')).toContain('secret_access_key');
    expect(foreignOptionFields('s3')).toEqual([
      'root_path',
      'endpoint_url',
      'username',
      'password',
      'tls_insecure',
      'host',
      'port',
      'tls',
      'private_key',
      'passphrase',
      'host_key_sha256',
      'root_folder',
      'rclone_config',
    ]);
    expect(STORAGE_TYPE_SPECS.ftp.secretFields).toEqual(['password']);
    expect(foreignOptionFields('ftp')).toContain('endpoint_url');
    expect(foreignOptionFields('ftp')).not.toContain('tls_insecure');
    expect(foreignOptionFields('webdav')).toContain('host');
    expect(STORAGE_TYPE_SPECS.sftp.secretFields).toEqual(['password', 'private_key', 'passphrase']);
    expect(foreignOptionFields('sftp')).toContain('endpoint_url');
    expect(foreignOptionFields('sftp')).not.toContain('username');
    expect(STORAGE_TYPE_SPECS.rclone.secretFields).toEqual(['rclone_config']);
    expect(foreignOptionFields('rclone')).toContain('endpoint_url');
    expect(STORAGE_TYPE_SPECS.webdav.secretFields).toEqual(['password']);
    expect(foreignOptionFields('webdav')).toContain('bucket');
    expect(foreignOptionFields('webdav')).not.toContain('endpoint_url');
    expect(updateStorageConfigSchema.parse({ secret_access_key: '' })).toEqual({ secret_access_key: '' });
  });
});

describe('storage type registry', () => {
  it('knows local, s3, webdav, ftp, sftp and rclone only', () => {
    expect(storageTypeOf('rclone')?.type).toBe('rclone');
    expect(storageTypeOf('local')?.type).toBe('local');
    expect(storageTypeOf('s3')?.type).toBe('s3');
    expect(storageTypeOf('webdav')?.type).toBe('webdav');
    expect(storageTypeOf('ftp')?.type).toBe('ftp');
    expect(storageTypeOf('sftp')?.type).toBe('sftp');
    expect(storageTypeOf('sftp-ish')).toBeUndefined();
    expect(storageTypeOf('constructor')).toBeUndefined();
  });

  it('options never carry the secret; secrets go encrypted to their column', () => {
    const def = STORAGE_TYPE_DEFINITIONS.s3;
    expect(pickOptions(def, { ...s3Input, name: 'x' })).toEqual({
      endpoint: s3Input.endpoint,
      bucket: 'b',
      access_key_id: 'AKIA',
    });
    const columns = secretColumns(def, s3Input, cipher);
    expect(Object.keys(columns)).toEqual(['secret_encrypted']);
    expect(columns.secret_encrypted).not.toContain('the-secret-value');
    expect(cipher.decrypt(String(columns.secret_encrypted))).toBe(s3Input.secret_access_key);
  });

  it('a blank or omitted secret on edit changes nothing (the stored one is kept)', () => {
    const def = STORAGE_TYPE_DEFINITIONS.s3;
    expect(secretColumns(def, { secret_access_key: '' }, cipher)).toEqual({});
    expect(secretColumns(def, { bucket: 'other' }, cipher)).toEqual({});
    expect(secretColumns(STORAGE_TYPE_DEFINITIONS.local, { secret_access_key: 'x' }, cipher)).toEqual({});
  });

  it('answers secrets masked, never in clear', () => {
    const row = { secret_encrypted: cipher.encrypt('the-secret-value-9876') };
    expect(secretView(row, cipher)).toEqual({ secret_access_key_masked: '••••9876', has_secret: true });
    expect(secretView({ secret_encrypted: cipher.encrypt('short') }, cipher).secret_access_key_masked).toBe('••••');
    expect(secretView({ secret_encrypted: '' }, cipher)).toEqual({ secret_access_key_masked: '', has_secret: false });
    // encrypted under another key: still only a mask
    const other = new SecretCipher('another-key-another-key-01234567');
    expect(secretView({ secret_encrypted: other.encrypt('zzzzzzzzzzzz') }, cipher)).toEqual({
      secret_access_key_masked: '••••',
      has_secret: true,
    });
  });

  it('s3 columns: endpoint required unless aws, access key never blank', async () => {
    const def = STORAGE_TYPE_DEFINITIONS.s3;
    const ctx = {} as never;
    await expect(def.columns({ provider: 'minio', endpoint: '' }, ctx)).rejects.toBeInstanceOf(AppError);
    await expect(def.columns({ access_key_id: '' }, ctx)).rejects.toThrow(/access_key_id/);
    expect(await def.columns({ provider: 'aws', path_style: true }, ctx)).toEqual({ provider: 'aws', path_style: 1 });
  });
});

describe('local roots and local drivers', () => {
  let base: string;
  let allowed: string;
  let registry: StorageRegistry;
  const built: string[] = [];
  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), 'clipnest-roots-'));
    allowed = path.join(base, 'allowed');
    mkdirSync(path.join(base, 'elsewhere'), { recursive: true });
    mkdirSync(allowed, { recursive: true });
    symlinkSync(path.join(base, 'elsewhere'), path.join(allowed, 'escape'));
    registry = new StorageRegistry({
      cipher,
      localRoot: path.join(base, 'data', 'storage', 'local'),
      localRoots: new LocalRoots([allowed, path.join(base, 'created-at-first-use')]),
      factories: {
        local: (root) => {
          built.push(root);
          return { kind: 'local' } as StorageDriver;
        },
        s3: () => ({ kind: 's3' }) as StorageDriver,
        webdav: () => ({ kind: 'webdav' }) as StorageDriver,
        ftp: () => ({ kind: 'ftp' }) as StorageDriver,
        sftp: () => ({ kind: 'sftp' }) as StorageDriver,
        rclone: () => ({ kind: 'rclone' }) as StorageDriver,
      },
    });
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const prepare = (p: string) => registry.context.localRoots.prepare(p);

  it('creates a root inside an allowed root and answers its real path', async () => {
    expect(await prepare(path.join(allowed, 'a', 'b'))).toBe(path.join(allowed, 'a', 'b'));
    expect(await prepare(path.join(base, 'created-at-first-use', 'x'))).toBe(
      path.join(base, 'created-at-first-use', 'x'),
    );
    expect(await prepare(allowed)).toBe(allowed);
  });

  it.each([
    ['outside', () => path.join(base, 'elsewhere')],
    ['a sibling with a common prefix', () => `${allowed}-evil`],
    ['through a symlink pointing out', () => path.join(allowed, 'escape', 'x')],
    ['with ..', () => `${allowed}/../elsewhere`],
    ['relative', () => 'allowed/x'],
  ])('refuses a root %s with a 400 naming root_path', async (_why, p) => {
    const error = await prepare(p()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).data).toMatchObject({ fields: [{ path: 'root_path' }] });
  });

  it('builds the built-in driver on DATA_DIR/storage/local and others on their root; refuses a root no longer allowed', async () => {
    const row = { id: 'a', storage_type: 'local', endpoint: '', bucket: '', region: '', access_key_id: '' };
    const config = { ...row, secret_encrypted: '', path_style: 0, updated_at: 't' };
    registry.driverFor({ ...config, root_path: '' });
    registry.driverFor({ ...config, id: 'legacy' }); // rows from before root_path existed
    registry.driverFor({ ...config, id: 'b', root_path: path.join(allowed, 'a') });
    expect(built).toEqual([registry.localRoot, registry.localRoot, path.join(allowed, 'a')]);
    const refused = registry.driverFor({ ...config, id: 'c', root_path: path.join(base, 'elsewhere') });
    await expect(refused.list('')).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('outside LOCAL_STORAGE_ROOTS'),
    });
    expect(built).toHaveLength(3);
  });
});
