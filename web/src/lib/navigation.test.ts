// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { isLinkActive, navigate, routePath } from './navigation';

describe('routePath', () => {
  it('decodes each segment once and escapes only what wouter decodes again', () => {
    expect(routePath('/mount-explorer/a%20b/c%26d')).toBe('/mount-explorer/a b/c&d');
    expect(routePath('/x/100%25')).toBe('/x/100%25');
    expect(routePath('/x/a%2Fb')).toBe('/x/a%2Fb');
    expect(routePath('/x/%E0%A4%A')).toBe('/x/%25E0%25A4%25A');
  });
});

describe('navigate', () => {
  it('adds an entry, but going where the page already is replaces it', () => {
    navigate('/upload');
    const before = window.history.length;
    navigate('/paste/abc?x=1');
    expect(window.location.pathname + window.location.search).toBe('/paste/abc?x=1');
    expect(window.history.length).toBe(before + 1);
    navigate('/paste/abc?x=1');
    navigate('/admin', { replace: true });
    expect(window.location.pathname).toBe('/admin');
    expect(window.history.length).toBe(before + 1);
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
