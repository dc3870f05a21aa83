import { describe, expect, it } from 'vitest';
import { baseName, crumbs, explorerHref, isWithin, joinPath, parentPath, pathFromSplat } from './paths';

describe('explorer paths', () => {
  it('turns virtual paths into URLs and back', () => {
    expect(explorerHref('/')).toBe('/mount-explorer');
    expect(explorerHref('/a/b c/中')).toBe('/mount-explorer/a/b%20c/%E4%B8%AD');
    expect(explorerHref('/a', '/a/x y.txt')).toBe('/mount-explorer/a?preview=%2Fa%2Fx%20y.txt');
    expect(pathFromSplat('a/b c/')).toBe('/a/b c');
    expect(pathFromSplat(undefined)).toBe('/');
  });

  it('splits and joins', () => {
    expect(joinPath('/', 'x')).toBe('/x');
    expect(joinPath('/a/', 'x')).toBe('/a/x');
    expect(parentPath('/a/b')).toBe('/a');
    expect(parentPath('/a')).toBe('/');
    expect(baseName('/a/b.txt')).toBe('b.txt');
    expect(crumbs('/a/b').map((c) => c.path)).toEqual(['/', '/a', '/a/b']);
  });

  it('checks base paths on segment boundaries', () => {
    expect(isWithin('/team/x', '/team')).toBe(true);
    expect(isWithin('/team', '/team/')).toBe(true);
    expect(isWithin('/team-b', '/team')).toBe(false);
    expect(isWithin('/x', '/')).toBe(true);
  });
});
