import { describe, expect, it } from 'vitest';
import {
  assertNormalized,
  baseName,
  isWithin,
  joinPath,
  normalizePath,
  parentPath,
  SHARE_AREA,
  shareFolderOf,
  shareObjectPath,
} from './paths.js';
import { isStorageError } from './types.js';

function rejects(input: string): void {
  let caught: unknown;
  try {
    normalizePath(input);
  } catch (err) {
    caught = err;
  }
  expect(isStorageError(caught, 'invalid_path'), `expected ${JSON.stringify(input)} to be rejected`).toBe(true);
}

describe('normalizePath', () => {
  it.each([
    ['', ''],
    ['/', ''],
    ['a', 'a'],
    ['/a/b/', 'a/b'],
    ['a//b///c', 'a/b/c'],
    ['./a/./b/.', 'a/b'],
    ['dir with spaces/file name.txt', 'dir with spaces/file name.txt'],
    ['文档/报告 2024.pdf', '文档/报告 2024.pdf'],
    ['emoji 🎉/ü.txt', 'emoji 🎉/ü.txt'],
    ['...', '...'],
    ['a..b/..c/d..', 'a..b/..c/d..'],
    ['.hidden', '.hidden'],
    ['100% done.txt', '100% done.txt'],
    ['%41', '%41'],
  ])('%j → %j', (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });

  it.each([
    '..',
    '../etc/passwd',
    'a/../b',
    'a/..',
    '/..',
    '%2e%2e/secret',
    '%2E%2E',
    'a/%2e%2e/b',
    '.%2e/x',
    '%2e./x',
    '%252e%252e/x',
    'a%2fb',
    'a%2Fb',
    'a%5cb',
    'a%00b',
    'a\\b',
    '..\\windows',
    'a\u0000b',
    'a\nb',
    'a\u007fb',
    '.clipnest-multipart/x',
    'a/.clipnest-tmp',
    'x'.repeat(256),
    `${'abcdefgh/'.repeat(120)}end`,
  ])('rejects %j', (input) => {
    rejects(input);
  });

  it('accepts a 255-byte name and rejects a 256-byte one', () => {
    expect(normalizePath('é'.repeat(127) + 'x')).toHaveLength(128);
    rejects('é'.repeat(128));
  });

  it('rejects non-strings', () => {
    rejects(undefined as unknown as string);
  });
});

describe('path helpers', () => {
  it('assertNormalized accepts clean paths and refuses the rest', () => {
    expect(assertNormalized('a/b')).toBe('a/b');
    expect(assertNormalized('')).toBe('');
    expect(() => assertNormalized('/a')).toThrow();
    expect(() => assertNormalized('a/')).toThrow();
    expect(() => assertNormalized('a//b')).toThrow();
  });

  it('joins, splits and compares', () => {
    expect(joinPath('', 'a', 'b c')).toBe('a/b c');
    expect(joinPath('a/b', 'c')).toBe('a/b/c');
    expect(() => joinPath('a', '..')).toThrow();
    expect(parentPath('a/b/c')).toBe('a/b');
    expect(parentPath('a')).toBe('');
    expect(parentPath('')).toBe('');
    expect(baseName('a/b/c.txt')).toBe('c.txt');
    expect(baseName('a')).toBe('a');
    expect(baseName('')).toBe('');
    expect(isWithin('a/b', 'a')).toBe(true);
    expect(isWithin('a', 'a')).toBe(true);
    expect(isWithin('ab', 'a')).toBe(false);
    expect(isWithin('x', '')).toBe(true);
  });
});

describe('the share area (issue 34 point 2)', () => {
  it('no user path names it; drivers accept it only as the first segment', () => {
    rejects(`${SHARE_AREA}/a.txt`);
    rejects(`/${SHARE_AREA}`);
    rejects(`a/${SHARE_AREA}/b`);
    expect(assertNormalized(`${SHARE_AREA}/docs/Ab3dEf7h_a.txt`)).toBe(`${SHARE_AREA}/docs/Ab3dEf7h_a.txt`);
    expect(() => assertNormalized(`a/${SHARE_AREA}/b`)).toThrow();
    expect(() => assertNormalized('.clipnest-multipart/x')).toThrow();
  });

  it('builds and reads share object paths', () => {
    expect(shareObjectPath('docs', 'n.txt', true)).toBe(`${SHARE_AREA}/docs/n.txt`);
    expect(shareObjectPath('', 'n.txt', true)).toBe(`${SHARE_AREA}/n.txt`);
    expect(shareObjectPath('docs', 'n.txt', false)).toBe('docs/n.txt');
    expect(shareFolderOf(`${SHARE_AREA}/docs/n.txt`)).toBe('docs');
    expect(shareFolderOf(`${SHARE_AREA}/n.txt`)).toBe('');
    expect(shareFolderOf('legacy/n.txt')).toBe('legacy');
  });
});
