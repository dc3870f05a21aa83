// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { publicFileQuery } from '../features/file-view/api';
import { pasteViewQuery } from '../features/pastes/api';
import { queryClient } from '../lib/queryClient';
import { prefetchFirstRead } from './firstRead';

function answer(data: unknown) {
  return new Response(JSON.stringify({ code: 200, message: 'OK', data, success: true }), {
    headers: { 'content-type': 'application/json' },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('the first read of a shared page', () => {
  it('sends a shared paste’s request once; the page’s own query takes the answer without asking again', async () => {
    const fetch = vi.fn(async () => answer({ slug: 'a b' }));
    vi.stubGlobal('fetch', fetch);
    prefetchFirstRead('/paste/a%20b');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toMatch(/\/api\/paste\/a%20b$/);
    await expect(queryClient.ensureQueryData(pasteViewQuery('a b'))).resolves.toEqual({ slug: 'a b' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('reads a shared file with the session, as its page does: the owner is not counted (issue 35 point 14)', async () => {
    localStorage.setItem('admin_token', 'secret');
    // The auth module follows storage events (another tab logging in): the session is now the admin's.
    window.dispatchEvent(new StorageEvent('storage', { key: 'admin_token' }));
    const fetch = vi.fn(async (_url: unknown, _init?: RequestInit) => answer({ slug: 'x' }));
    vi.stubGlobal('fetch', fetch);
    prefetchFirstRead('/file/x/');
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(String(url)).toMatch(/\/api\/public\/files\/x$/);
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer secret');
    await queryClient.ensureQueryData(publicFileQuery('x'));
    expect(fetch).toHaveBeenCalledTimes(1);
    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: 'admin_token' }));
  });

  it('keeps the answer for a screen whose code is still on the way, even for a query kept 0 ms', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer({ slug: 'y' })),
    );
    prefetchFirstRead('/file/y');
    await vi.waitFor(() => expect(queryClient.getQueryData(publicFileQuery('y').queryKey)).toEqual({ slug: 'y' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queryClient.getQueryData(publicFileQuery('y').queryKey)).toEqual({ slug: 'y' });
  });

  it('sends nothing for other pages', () => {
    const fetch = vi.fn(async () => answer(null));
    vi.stubGlobal('fetch', fetch);
    for (const path of ['/', '/upload', '/paste', '/paste/', '/paste/a/b', '/admin/paste/x', '/mount-explorer/paste/x'])
      prefetchFirstRead(path);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('leaves a failed request to the page, which shows it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    prefetchFirstRead('/paste/gone');
    await vi.waitFor(() => expect(queryClient.getQueryState(pasteViewQuery('gone').queryKey)?.status).toBe('error'));
  });
});
