// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { appPath, currentLocation, navigate, subscribeLocation } from './location';

describe('location store', () => {
  it('pushes a new entry and tells subscribers', () => {
    const seen: string[] = [];
    const stop = subscribeLocation(() => seen.push(currentLocation().pathname + currentLocation().search));
    const before = window.history.length;
    navigate('/paste/abc?x=1');
    expect(window.location.pathname).toBe('/paste/abc');
    expect(currentLocation()).toEqual({ pathname: '/paste/abc', search: '?x=1', hash: '' });
    expect(window.history.length).toBe(before + 1);
    stop();
    navigate('/upload');
    expect(seen).toEqual(['/paste/abc?x=1']);
  });

  it('replaces the entry when asked, or when the path is where the page already is', () => {
    navigate('/upload');
    const before = window.history.length;
    navigate('/admin', { replace: true });
    navigate('/admin');
    expect(window.location.pathname).toBe('/admin');
    expect(window.history.length).toBe(before);
  });

  it('resolves paths against the page and knows what leaves the origin', () => {
    navigate('/admin/account');
    expect(appPath('settings/site')).toBe('/admin/settings/site');
    expect(appPath('/file/x#top')).toBe('/file/x#top');
    expect(appPath('https://elsewhere.example/x')).toBeNull();
  });

  it('follows Back and Forward', () => {
    navigate('/one');
    navigate('/two');
    window.history.replaceState(null, '', '/one');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(currentLocation().pathname).toBe('/one');
  });
});
