import { describe, expect, it } from 'vitest';
import { isPathWithin, normalizeVirtualPath } from './paths.js';

describe('normalizeVirtualPath', () => {
  it.each([
    ['', '/'],
    ['/', '/'],
    ['a/b', '/a/b'],
    ['//a///b/', '/a/b'],
    ['/a/./b', '/a/b'],
    ['\\a\\b', '/a/b'],
    ['/文档/照片 2024', '/文档/照片 2024'],
    ['/a%20b', '/a b'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeVirtualPath(input)).toBe(expected);
  });

  it.each([
    '/..',
    '/a/../..',
    '/a/..',
    '%2e%2e/x',
    '/a/%2E%2E/b',
    '%252e%252e/x',
    '/a\u0000b',
    '/a\nb',
    '/%00',
    '/a/..\\..',
  ])('refuses %j', (input) => {
    expect(normalizeVirtualPath(input)).toBeNull();
  });
});

describe('isPathWithin', () => {
  it('treats / as containing everything and respects segment boundaries', () => {
    expect(isPathWithin('/x', '/')).toBe(true);
    expect(isPathWithin('/docs', '/docs')).toBe(true);
    expect(isPathWithin('/docs/a', '/docs')).toBe(true);
    expect(isPathWithin('/docs2', '/docs')).toBe(false);
  });
});
