import { parse } from 'regexparam';
import { describe, expect, it } from 'vitest';
import { matchRoute } from 'wouter';
import { routePath } from '../lib/navigation';
import { ADMIN_PATH, ADMIN_ROUTES, firstLoadModules, PUBLIC_ROUTES } from './routes';

/** What the router's Switch renders for the address `raw` (as the browser has it): the route and its params. */
function resolve(raw: string): { route: string; params: Record<string, string | undefined> } {
  // wouter reads the path through routePath (the app's location hook), then its own decodeURI.
  const path = decodeURI(routePath(raw));
  for (const route of PUBLIC_ROUTES) {
    const [matched, params] = matchRoute(parse, route.path, path);
    if (matched) return { route: route.path, params: params as Record<string, string> };
  }
  if (matchRoute(parse, ADMIN_PATH, path)[0]) {
    const page = ADMIN_ROUTES.find((route) => matchRoute(parse, route.path, path)[0]);
    return { route: page?.path ?? 'admin without a page', params: {} };
  }
  return { route: 'redirect to /', params: {} };
}

describe('routes (app/routes.ts read as the router reads it)', () => {
  it('takes each public screen on its own path, with or without a trailing slash', () => {
    expect(resolve('/').route).toBe('/');
    expect(resolve('/upload').route).toBe('/upload');
    expect(resolve('/upload/').route).toBe('/upload');
    expect(resolve('/paste/abc').route).toBe('/paste/:slug');
    expect(resolve('/file/abc/').route).toBe('/file/:slug');
    expect(resolve('/connect/AbC-d_e').params.token).toBe('AbC-d_e');
  });

  it('takes every admin page, and the dashboard on /admin itself', () => {
    expect(resolve('/admin').route).toBe('/admin');
    expect(resolve('/admin/').route).toBe('/admin');
    expect(resolve('/admin/settings/site').route).toBe('/admin/settings/site');
    for (const route of ADMIN_ROUTES) expect(resolve(route.path).route).toBe(route.path);
  });

  it('compares static segments without regard to case', () => {
    expect(resolve('/UPLOAD').route).toBe('/upload');
    expect(resolve('/Admin/Settings/Site').route).toBe('/admin/settings/site');
  });

  it('hands over params decoded, keeping an encoded slash inside its segment', () => {
    expect(resolve('/paste/abc').params.slug).toBe('abc');
    expect(resolve('/paste/a%20b').params.slug).toBe('a b');
    expect(resolve('/paste/a%2Fb').params.slug).toBe('a%2Fb');
    expect(resolve('/paste/%E0%A4%A').params.slug).toBe('%E0%A4%A');
    // What wouter's own decodeURI would get wrong: reserved characters and a literal "%".
    expect(resolve('/paste/a%26b%3Fc%23d').params.slug).toBe('a&b?c#d');
    expect(resolve('/paste/100%25').params.slug).toBe('100%');
    expect(resolve('/paste/%2541').params.slug).toBe('%41');
  });

  it('gives the mount explorer the rest of the path, decoded per segment', () => {
    expect(resolve('/mount-explorer').route).toBe('/mount-explorer/*?');
    expect(resolve('/mount-explorer').params['*']).toBeUndefined();
    expect(resolve('/mount-explorer/local/a%20b/c.txt').params['*']).toBe('local/a b/c.txt');
    expect(resolve('/mount-explorer/local/%E4%B8%AD%E6%96%87/50%25%20off%3F.txt').params['*']).toBe(
      'local/中文/50% off?.txt',
    );
  });

  it('sends what no route takes to /', () => {
    for (const path of ['/paste', '/paste/a/b', '/admin/nope', '/admin/settings', '/nope', '/file'])
      expect(resolve(path).route).toBe('redirect to /');
  });

  it('preloads, for each first segment, the screen, what it needs and its texts', () => {
    const map = firstLoadModules();
    expect(map.paste).toEqual([
      'src/features/paste-view/PasteViewPage.tsx',
      'src/components/markdown/runtime.ts',
      'src/locales/{lang}/paste.json',
    ]);
    expect(map['mount-explorer']).toContain('src/locales/{lang}/fs.json');
    expect(map.admin).toEqual([
      'src/app/admin/AdminGate.tsx',
      'src/locales/{lang}/admin.json',
      'src/locales/{lang}/login.json',
    ]);
    expect(Object.keys(map).sort()).toEqual([
      '',
      'admin',
      'connect',
      'file',
      'mount-explorer',
      'paste',
      'r',
      's',
      'upload',
    ]);
    expect(map.connect).toEqual([
      'src/features/auth/ConnectPage.tsx',
      'src/locales/{lang}/connect.json',
      'src/locales/{lang}/login.json',
    ]);
    expect(map.s).toEqual(['src/features/file-view/ShareViewPage.tsx', 'src/locales/{lang}/files.json']);
    expect(map.r).toEqual(['src/features/file-view/UploadRequestPage.tsx', 'src/locales/{lang}/files.json']);
  });
});
