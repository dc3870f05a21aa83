// The local driver never follows a symlink out of its root, for any operation.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStorageError } from '../types.js';
import { LocalDriver } from './driver.js';

function body(text: string): ReadableStream<Uint8Array> {
  return new Blob([text]).stream();
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return isStorageError(err) ? err.code : `other: ${String(err)}`;
  }
  return 'ok';
}

/** Every file below `dir` with its bytes and mtime: equal snapshots = nothing written, moved or removed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const abs = path.join(dir, name);
    const st = statSync(abs);
    out[name] = st.isDirectory() ? 'dir' : `${readFileSync(abs, 'utf8')}@${st.mtimeMs}`;
  }
  return out;
}

describe('local driver: symlinks out of the root', () => {
  let base: string;
  let root: string;
  let outside: string;
  let driver: LocalDriver;
  let before: Record<string, string>;

  beforeEach(() => {
    base = mkdtempSync(path.join(tmpdir(), 'clipnest-symlink-'));
    root = path.join(base, 'root');
    outside = path.join(base, 'outside');
    mkdirSync(path.join(root, 'inside-dir'), { recursive: true });
    mkdirSync(path.join(outside, 'sub'), { recursive: true });
    writeFileSync(path.join(outside, 'secret.txt'), 'top secret');
    writeFileSync(path.join(outside, 'sub', 'deep.txt'), 'deep secret');
    writeFileSync(path.join(root, 'inside-dir', 'ok.txt'), 'fine');
    symlinkSync(outside, path.join(root, 'out-dir')); // a directory link leading out
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'out-file')); // a file link leading out
    symlinkSync(path.join(root, 'inside-dir'), path.join(root, 'in-dir')); // a link that stays inside
    symlinkSync('../../outside/sub', path.join(root, 'inside-dir', 'rel-out')); // relative, two levels deep
    driver = new LocalDriver({ root, fsync: false });
    before = snapshot(outside);
  });
  afterEach(() => {
    expect(snapshot(outside)).toEqual(before);
    rmSync(base, { recursive: true, force: true });
  });

  it('read and stat refuse targets through an outward link', async () => {
    for (const p of ['out-file', 'out-dir/secret.txt', 'out-dir/sub/deep.txt', 'inside-dir/rel-out/deep.txt']) {
      expect(await code(driver.read(p)), p).toBe('invalid_path');
      expect(await code(driver.stat(p)), p).toBe('invalid_path');
    }
    expect(await code(driver.stat('out-dir'))).toBe('invalid_path');
  });

  it('list refuses an outward directory link and leaves outward links out of listings', async () => {
    expect(await code(driver.list('out-dir'))).toBe('invalid_path');
    expect(await code(driver.list('inside-dir/rel-out'))).toBe('invalid_path');
    const top = (await driver.list('')).entries.map((e) => e.name);
    expect(top).toEqual(['in-dir', 'inside-dir']);
    const inner = (await driver.list('inside-dir')).entries.map((e) => e.name);
    expect(inner).toEqual(['ok.txt']);
  });

  it('write, mkdir and multipart refuse to create anything through an outward link', async () => {
    expect(await code(driver.write('out-dir/new.txt', body('x')))).toBe('invalid_path');
    expect(await code(driver.write('out-dir/sub/secret.txt', body('x')))).toBe('invalid_path');
    expect(await code(driver.write('out-dir/a/b/c.txt', body('x')))).toBe('invalid_path');
    expect(await code(driver.write('out-file', body('overwritten')))).toBe('invalid_path');
    expect(await code(driver.mkdir('out-dir/newdir'))).toBe('invalid_path');
    expect(await code(driver.mkdir('inside-dir/rel-out/x'))).toBe('invalid_path');
    expect(await code(driver.multipart.start('out-dir/big.bin'))).toBe('invalid_path');
  });

  it('remove refuses entries behind an outward link; removing the link itself leaves its target alone', async () => {
    expect(await code(driver.remove('out-dir/secret.txt'))).toBe('invalid_path');
    expect(await code(driver.remove('out-dir/sub', { recursive: true }))).toBe('invalid_path');
    expect(await code(driver.remove('out-dir', { recursive: true }))).toBe('ok');
    expect(await code(driver.remove('out-file'))).toBe('ok');
    expect(await code(driver.remove('inside-dir', { recursive: true }))).toBe('ok'); // holds rel-out
  });

  it('move and copy refuse an outward source or target', async () => {
    expect(await code(driver.move('out-dir/secret.txt', 'stolen.txt'))).toBe('invalid_path');
    expect(await code(driver.copy('out-file', 'stolen.txt'))).toBe('invalid_path');
    expect(await code(driver.copy('out-dir', 'stolen-dir'))).toBe('invalid_path');
    expect(await code(driver.move('inside-dir/ok.txt', 'out-dir/ok.txt'))).toBe('invalid_path');
    expect(await code(driver.copy('inside-dir/ok.txt', 'out-dir/sub/deep.txt', { overwrite: true }))).toBe(
      'invalid_path',
    );
    // a folder copy skips the outward link it holds
    expect(await code(driver.copy('inside-dir', 'copied'))).toBe('ok');
    expect(readdirSync(path.join(root, 'copied'))).toEqual(['ok.txt']);
  });

  it('follows a link that stays inside the root', async () => {
    const read = await driver.read('in-dir/ok.txt');
    expect(await new Response(read.stream).text()).toBe('fine');
    expect(await code(driver.write('in-dir/new.txt', body('new')))).toBe('ok');
    expect(readFileSync(path.join(root, 'inside-dir', 'new.txt'), 'utf8')).toBe('new');
  });

  it('a root that is itself reached through a symlink is its own boundary', async () => {
    const linkedRoot = path.join(base, 'linked-root');
    symlinkSync(root, linkedRoot);
    const viaLink = new LocalDriver({ root: linkedRoot, fsync: false });
    expect(await code(viaLink.read('inside-dir/ok.txt'))).toBe('ok');
    expect(await code(viaLink.read('out-dir/secret.txt'))).toBe('invalid_path');
  });
});
