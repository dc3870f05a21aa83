import { describe, expect, it } from 'vitest';
import { isLinkActive, matchRoutes, type RouteObject } from './match';

const table: RouteObject[] = [
  {
    path: undefined,
    handle: 'layout',
    children: [
      { index: true, handle: 'home' },
      { path: 'upload', handle: 'upload' },
      { path: 'paste/:slug', handle: 'paste' },
      { path: 'mount-explorer/*', handle: 'explorer' },
      {
        path: 'admin',
        handle: 'admin',
        children: [
          { index: true, handle: 'dashboard' },
          { path: 'settings/site', handle: 'site' },
        ],
      },
      { path: '*', handle: 'fallback' },
    ],
  },
];

const handles = (pathname: string) => matchRoutes(table, pathname)?.map((m) => m.route.handle);
const params = (pathname: string) => matchRoutes(table, pathname)?.at(-1)?.params;

describe('matchRoutes', () => {
  it('matches the chain from the layout down, index routes on their parent’s own path', () => {
    expect(handles('/')).toEqual(['layout', 'home']);
    expect(handles('/upload')).toEqual(['layout', 'upload']);
    expect(handles('/upload/')).toEqual(['layout', 'upload']);
    expect(handles('/admin')).toEqual(['layout', 'admin', 'dashboard']);
    expect(handles('/admin/settings/site')).toEqual(['layout', 'admin', 'site']);
  });

  it('compares static segments without regard to case', () => {
    expect(handles('/UPLOAD')).toEqual(['layout', 'upload']);
    expect(handles('/Admin/Settings/Site')).toEqual(['layout', 'admin', 'site']);
  });

  it('hands over params decoded, keeping an encoded slash inside its segment', () => {
    expect(params('/paste/abc')).toEqual({ slug: 'abc' });
    expect(params('/paste/a%20b')).toEqual({ slug: 'a b' });
    expect(params('/paste/a%2Fb')).toEqual({ slug: 'a%2Fb' });
    expect(params('/paste/%E0%A4%A')).toEqual({ slug: '%E0%A4%A' });
  });

  it('gives a splat the rest of the path', () => {
    expect(params('/mount-explorer')).toEqual({ '*': '' });
    expect(params('/mount-explorer/local/a%20b/c.txt')).toEqual({ '*': 'local/a b/c.txt' });
  });

  it('sends what no route takes to the catch-all', () => {
    expect(handles('/paste')).toEqual(['layout', 'fallback']);
    expect(handles('/paste/a/b')).toEqual(['layout', 'fallback']);
    expect(handles('/admin/nope')).toEqual(['layout', 'fallback']);
    expect(handles('/nope')).toEqual(['layout', 'fallback']);
  });

  it('answers null when nothing matches', () => {
    expect(matchRoutes([{ path: 'upload' }], '/other')).toBeNull();
    expect(matchRoutes([{ path: 'upload' }], { pathname: '/upload' })).toHaveLength(1);
  });
});

describe('isLinkActive', () => {
  it('is active on its own path and below it, unless `end`', () => {
    expect(isLinkActive('/admin', '/admin')).toBe(true);
    expect(isLinkActive('/admin/account', '/admin')).toBe(true);
    expect(isLinkActive('/admin/account', '/admin', true)).toBe(false);
    expect(isLinkActive('/administrator', '/admin')).toBe(false);
    expect(isLinkActive('/Admin/', '/admin')).toBe(true);
  });

  it('counts Home only on Home', () => {
    expect(isLinkActive('/', '/')).toBe(true);
    expect(isLinkActive('/upload', '/')).toBe(false);
  });
});
