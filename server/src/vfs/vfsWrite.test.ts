// vfs.write for WebDAV's PUT: one look at the target and its parent, side by side, then the bytes and the time.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import type { AdminPrincipal } from '../auth/principal.js';
import { LocalDriver } from '../storage/index.js';
import type { StorageDriver } from '../storage/types.js';
import type { MountRecord, VfsEntry } from './types.js';
import { Vfs } from './vfs.js';

const admin: AdminPrincipal = { type: 'admin', adminId: 'a', username: 'admin', tokenHash: 'h', expiresAt: '' };

const mount: MountRecord = {
  id: 'm',
  name: 'm',
  path: '/m',
  storage_type: 'local',
  storage_config_id: 'c',
  remark: '',
  sort_order: 0,
  cache_ttl: 60,
  is_active: true,
  web_proxy: false,
  enable_sign: false,
  sign_expires: null,
  webdav_policy: 'native_proxy',
  created_by: 'admin',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

/**
 * A local driver whose stat calls before the first write are logged, with how many were in flight when each
 * began (the driver's own stat after writing is its answer, not a look).
 */
function recording(driver: LocalDriver) {
  const stats: { path: string; inFlight: number }[] = [];
  let inFlight = 0;
  let writing = false;
  const proxy = new Proxy(driver, {
    get(target, name, receiver) {
      if (name === 'write') writing = true;
      if (name !== 'stat' || writing) return Reflect.get(target, name, receiver) as unknown;
      return async (p: string) => {
        stats.push({ path: p, inFlight: ++inFlight });
        // Both looks must have started before either answers.
        await new Promise((resolve) => setTimeout(resolve, 5));
        try {
          return await target.stat(p);
        } finally {
          inFlight--;
        }
      };
    },
  }) as StorageDriver;
  return { proxy, stats, reset: () => ((stats.length = 0), (writing = false)) };
}

describe('vfs.write with requireParent, before and mtime', () => {
  let root: string;
  let vfs: Vfs;
  let stats: { path: string; inFlight: number }[];
  let reset: () => void;

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'clipnest-vfs-write-'));
    const driver = recording(new LocalDriver({ root, fsync: false }));
    stats = driver.stats;
    reset = driver.reset;
    vfs = new Vfs({ loadMounts: async () => [mount], driverFor: async () => driver.proxy });
    await vfs.mkdir(admin, '/m/dir');
    reset();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('looks at the target and its parent side by side, shows the target to before(), then writes', async () => {
    reset();
    const seen: (VfsEntry | undefined)[] = [];
    await vfs.write(admin, '/m/dir/a.txt', Readable.from([Buffer.from('one')]), {
      requireParent: true,
      before: (existing) => void seen.push(existing),
    });
    expect(stats.map((s) => s.path).sort()).toEqual(['dir', 'dir/a.txt']);
    expect(Math.max(...stats.map((s) => s.inFlight))).toBe(2);
    expect(seen).toEqual([undefined]);

    reset();
    await vfs.write(admin, '/m/dir/a.txt', Readable.from([Buffer.from('two')]), {
      requireParent: true,
      before: (existing) => void seen.push(existing),
    });
    expect(stats).toHaveLength(2);
    expect(seen[1]).toMatchObject({ path: '/m/dir/a.txt', isDir: false, size: 3 });
    expect(readFileSync(path.join(root, 'dir/a.txt'), 'utf8')).toBe('two');
  });

  it('refuses a missing parent with 409 and writes nothing', async () => {
    const error = await vfs
      .write(admin, '/m/none/b.txt', Readable.from([Buffer.from('x')]), { requireParent: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(409);
    expect(() => readFileSync(path.join(root, 'none/b.txt'))).toThrow();
  });

  it('writes nothing when before() refuses', async () => {
    const refusal = AppError.forbidden('no');
    const error = await vfs
      .write(admin, '/m/dir/c.txt', Readable.from([Buffer.from('x')]), {
        requireParent: true,
        before: () => {
          throw refusal;
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBe(refusal);
    expect(() => readFileSync(path.join(root, 'dir/c.txt'))).toThrow();
  });

  it('sets the modification time where the storage can, and answers it', async () => {
    const at = new Date('2024-05-06T07:08:09.000Z');
    const entry = await vfs.write(admin, '/m/dir/d.txt', Readable.from([Buffer.from('x')]), { mtime: at });
    expect(entry.lastModified).toBe(at.toISOString());
  });

  it('a mount point is a mount boundary (400 here, 403 over WebDAV)', async () => {
    const error = await vfs.write(admin, '/m', Readable.from([]), { requireParent: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'VALIDATION', reason: 'mount_boundary' });
  });
});
