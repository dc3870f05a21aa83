// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEarlyRead, takeEarlyRead } from './earlyRead';

function answer(data: unknown) {
  return new Response(JSON.stringify({ code: 200, message: 'OK', data, success: true }), {
    headers: { 'content-type': 'application/json' },
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('early reads', () => {
  it('sends a shared paste’s request once and hands it over once', async () => {
    const fetch = vi.fn(async () => answer({ slug: 'a b' }));
    vi.stubGlobal('fetch', fetch);
    startEarlyRead('/paste/a%20b');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toMatch(/\/api\/paste\/a%20b$/);
    await expect(takeEarlyRead('/paste/a%20b')).resolves.toEqual({ slug: 'a b' });
    expect(takeEarlyRead('/paste/a%20b')).toBeUndefined();
  });

  it('reads a shared file with the session, as its page does: the owner is not counted (issue 35 point 14)', async () => {
    localStorage.setItem('admin_token', 'secret');
    // The auth module follows storage events (another tab logging in): the session is now the admin's.
    window.dispatchEvent(new StorageEvent('storage', { key: 'admin_token' }));
    const fetch = vi.fn(async (_url: unknown, _init?: RequestInit) => answer({ slug: 'x' }));
    vi.stubGlobal('fetch', fetch);
    startEarlyRead('/file/x/');
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(String(url)).toMatch(/\/api\/public\/files\/x$/);
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer secret');
    await takeEarlyRead('/public/files/x');
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: 'admin_token' }));
  });

  it('sends nothing for other pages or malformed addresses', () => {
    const fetch = vi.fn(async () => answer(null));
    vi.stubGlobal('fetch', fetch);
    for (const path of ['/', '/upload', '/paste', '/paste/', '/paste/a/b', '/file/%E0%A4%A', '/admin/paste/x'])
      startEarlyRead(path);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('leaves a failed request to whoever takes it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    startEarlyRead('/paste/gone');
    await expect(takeEarlyRead('/paste/gone')).rejects.toBeTruthy();
  });
});
