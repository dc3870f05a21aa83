import { describe, expect, it } from 'vitest';
import { isPathWithin, normalizeVirtualPath, parentVirtualPath, parseVirtualPath } from './paths.js';

describe('normalizeVirtualPath', () => {
  it.each([
    ['', '/'],
    ['/', '/'],
    ['a/b', '/a/b'],
    ['//a///b/', '/a/b'],
    ['/a/./b', '/a/b'],
    ['/文档/照片 2024', '/文档/照片 2024'],
    ['/a%20b', '/a%20b'],
    ['/100%.txt', '/100%.txt'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeVirtualPath(input)).toBe(expected);
  });

  it('decodes raw URL paths once when asked', () => {
    expect(normalizeVirtualPath('/a%20b', { decode: true })).toBe('/a b');
    expect(normalizeVirtualPath('/a%2e%2e', { decode: true })).toBe('/a..');
    expect(normalizeVirtualPath('/%2e%2e/x', { decode: true })).toBeNull();
    expect(normalizeVirtualPath('/%25%32%65%25%32%65/x', { decode: true })).toBeNull();
    expect(normalizeVirtualPath('/%E0%A4%A', { decode: true })).toBeNull();
  });

  it.each([
    '/..',
    '/a/../..',
    '/a/..',
    '../x',
    '%2e%2e/x',
    '/a/%2E%2E/b',
    '/a%2fb',
    '/a%5cb',
    '%252e%252e/x',
    '%25252e%25252e/x',
    '/a\u0000b',
    '/a\nb',
    '/a\u007fb',
    '/%00',
    '\\a\\b',
    '/a/..\\..',
    '/' + 'a'.repeat(4096),
  ])('refuses %j', (input) => {
    expect(normalizeVirtualPath(input)).toBeNull();
  });

  it('names the problem', () => {
    expect(parseVirtualPath('/a/../b')).toEqual({ problem: "'..' segment" });
    expect(parseVirtualPath('/a\\b')).toEqual({ problem: 'backslash' });
    expect(parseVirtualPath(3)).toEqual({ problem: 'not a string' });
    expect(parseVirtualPath('/' + 'é'.repeat(2048))).toEqual({ problem: 'path too long' });
    expect(parseVirtualPath('/' + 'é'.repeat(2047))).toEqual({ path: '/' + 'é'.repeat(2047) });
  });
});

describe('isPathWithin', () => {
  it('treats / as containing everything and respects segment boundaries', () => {
    expect(isPathWithin('/x', '/')).toBe(true);
    expect(isPathWithin('/docs', '/docs')).toBe(true);
    expect(isPathWithin('/docs/a', '/docs')).toBe(true);
    expect(isPathWithin('/docs2', '/docs')).toBe(false);
    expect(isPathWithin('/team-b', '/team')).toBe(false);
  });

  it('parentVirtualPath', () => {
    expect(parentVirtualPath('/')).toBe('/');
    expect(parentVirtualPath('/a')).toBe('/');
    expect(parentVirtualPath('/a/b')).toBe('/a');
  });
});
