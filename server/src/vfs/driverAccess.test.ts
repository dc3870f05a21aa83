// Issue #37 point 1: the vfs is the only door to a mount's driver. `Resolved` carries no driver (the types say
// so); this checks the sources too: nothing outside server/src/vfs reaches the driver of a resolved path.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Resolved } from './types.js';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('driver access', () => {
  const outside = sources(src).filter((file) => !file.startsWith(path.join(src, 'vfs') + path.sep));

  it('Resolved has no driver', () => {
    const resolved: Resolved = { path: '/m/a', mount: {} as Resolved['mount'], driverPath: 'a' };
    expect(Object.keys(resolved)).not.toContain('driver');
    // @ts-expect-error a Resolved hands out no driver
    expect(resolved.driver).toBeUndefined();
  });

  it('no source outside server/src/vfs imports the vfs driver map or calls a resolved path’s driver', () => {
    expect(outside.length).toBeGreaterThan(50);
    const offenders = outside.filter((file) => {
      const text = readFileSync(file, 'utf8');
      return (
        /from '[^']*vfs\/drivers\.js'/.test(text) ||
        /\b(resolved|source|target|from|to|into|child)\.driver\b/.test(text)
      );
    });
    expect(offenders.map((f) => path.relative(src, f))).toEqual([]);
  });

  it('copy and capabilities are asked in the vfs only: no service checks driver.copy / presign / multipart / setModified of a mount', () => {
    const offenders = outside.filter((file) => {
      if (!/services\/(fsService|fsUploadService|webdav\/|tasks\/)/.test(file)) return false;
      // Calls through the vfs (`vfs.copy(`), this service's own methods and comments aside.
      const code = readFileSync(file, 'utf8')
        .replace(/^\s*(\/\/|\*|\/\*).*$/gm, '')
        .replace(/\b(vfs|this)\.\w+/g, '');
      return /\.(copy|presign|multipart|setModified)\b/.test(code);
    });
    expect(offenders.map((f) => path.relative(src, f))).toEqual([]);
  });
});
