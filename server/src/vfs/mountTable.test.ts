import { describe, expect, it } from 'vitest';
import { ListingCache } from './listingCache.js';
import { driverPathOf, hasMountBelow, longestMount, mountFolders } from './mountTable.js';
import type { MountRecord } from './types.js';

function mount(id: string, path: string, sort_order = 0): MountRecord {
  return {
    id,
    name: id,
    path,
    storage_type: 'local',
    storage_config_id: 'c',
    remark: '',
    sort_order,
    cache_ttl: 60,
    is_active: true,
    web_proxy: false,
    enable_sign: false,
    sign_expires: null,
    webdav_policy: '302_redirect',
    created_by: 'admin',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

const mounts = [mount('team', '/team'), mount('teamb', '/team-b'), mount('nested', '/team/x/deep', 1)];

describe('mount table', () => {
  it('resolves by longest prefix on segment boundaries', () => {
    expect(longestMount(mounts, '/team')?.id).toBe('team');
    expect(longestMount(mounts, '/team/a')?.id).toBe('team');
    expect(longestMount(mounts, '/team-b/a')?.id).toBe('teamb');
    expect(longestMount(mounts, '/team/x/deep/f')?.id).toBe('nested');
    expect(longestMount(mounts, '/team/x/deeper')?.id).toBe('team');
    expect(longestMount(mounts, '/other')).toBeUndefined();
    expect(driverPathOf(mounts[0]!, '/team')).toBe('');
    expect(driverPathOf(mounts[0]!, '/team/a/b')).toBe('a/b');
  });

  it('lists mounts as folders in their parents', () => {
    expect(mountFolders(mounts, '/').map((e) => [e.name, e.mountId])).toEqual([
      ['team', 'team'],
      ['team-b', 'teamb'],
    ]);
    expect(mountFolders(mounts, '/team').map((e) => [e.path, e.mountId])).toEqual([['/team/x', undefined]]);
    expect(mountFolders(mounts, '/team/x').map((e) => [e.path, e.mountId])).toEqual([['/team/x/deep', 'nested']]);
    expect(mountFolders(mounts, '/team-b')).toEqual([]);
    expect(hasMountBelow(mounts, '/team/x')).toBe(true);
    expect(hasMountBelow(mounts, '/team/x/deep')).toBe(false);
  });
});

describe('ListingCache', () => {
  it('expires by TTL and drops ancestors and descendants of a change', () => {
    let now = 0;
    const cache = new ListingCache(() => now);
    for (const dir of ['', 'a', 'a/b', 'a/b/c', 'z']) cache.set('m', dir, [], 10);
    cache.set('other', 'a', [], 10);
    cache.set('m', 'never', [], 0);
    expect(cache.get('m', 'never')).toBeUndefined();
    cache.invalidate('m', 'a/b');
    expect(cache.get('m', '')).toBeUndefined();
    expect(cache.get('m', 'a')).toBeUndefined();
    expect(cache.get('m', 'a/b')).toBeUndefined();
    expect(cache.get('m', 'a/b/c')).toBeUndefined();
    expect(cache.get('m', 'z')).toEqual([]);
    expect(cache.get('other', 'a')).toEqual([]);
    now = 10_000;
    expect(cache.get('m', 'z')).toBeUndefined();
  });
});
