import { ALL_PERMISSIONS, MOUNT_PERMISSIONS, Permission } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_PAGES,
  adminPageAccess,
  canEnterAdminArea,
  keyHolderFallback,
  normalizePermissions,
  visibleAdminPages,
} from './access';
import type { Session } from './auth';

const admin: Session = { type: 'admin', token: 't' };
const none: Session = { type: 'none' };
const key = (permissions: number): Session => ({ type: 'apikey', apiKey: 'k', permissions, keyInfo: null });

describe('admin area guard (spec §6)', () => {
  it('anonymous visitors get the login page on every admin page', () => {
    for (const page of ADMIN_PAGES) expect(adminPageAccess(page, none)).toEqual({ kind: 'login' });
  });

  it('admins see every page', () => {
    for (const page of ADMIN_PAGES) expect(adminPageAccess(page, admin)).toEqual({ kind: 'allow' });
    expect(visibleAdminPages(admin)).toEqual([...ADMIN_PAGES]);
  });

  it('a key enters only with TEXT or FILE_SHARE', () => {
    expect(canEnterAdminArea(key(Permission.TEXT))).toBe(true);
    expect(canEnterAdminArea(key(Permission.FILE_SHARE))).toBe(true);
    expect(canEnterAdminArea(key(MOUNT_PERMISSIONS | Permission.WEBDAV_READ))).toBe(false);
    expect(canEnterAdminArea(none)).toBe(false);
  });

  it('a TEXT-only key: text management allowed, everything else redirects to text management', () => {
    const session = key(Permission.TEXT);
    expect(adminPageAccess('text-management', session)).toEqual({ kind: 'allow' });
    for (const page of ADMIN_PAGES.filter((p) => p !== 'text-management')) {
      expect(adminPageAccess(page, session)).toEqual({ kind: 'redirect', to: '/admin/text-management' });
    }
    expect(visibleAdminPages(session)).toEqual(['text-management']);
  });

  it('a FILE_SHARE-only key lands on file management', () => {
    const session = key(Permission.FILE_SHARE);
    expect(adminPageAccess('dashboard', session)).toEqual({ kind: 'redirect', to: '/admin/file-management' });
    expect(adminPageAccess('text-management', session)).toEqual({ kind: 'redirect', to: '/admin/file-management' });
    expect(adminPageAccess('file-management', session)).toEqual({ kind: 'allow' });
  });

  it('a key with both prefers text management; admin-only pages stay closed even to a full key', () => {
    const session = key(ALL_PERMISSIONS);
    expect(adminPageAccess('key-management', session)).toEqual({ kind: 'redirect', to: '/admin/text-management' });
    expect(adminPageAccess('settings/site', session)).toEqual({ kind: 'redirect', to: '/admin/text-management' });
    expect(visibleAdminPages(session)).toEqual(['text-management', 'file-management']);
  });

  it('a key without text or file access is sent home', () => {
    expect(keyHolderFallback(Permission.MOUNT_VIEW)).toBe('/');
    expect(adminPageAccess('dashboard', key(Permission.MOUNT_VIEW))).toEqual({ kind: 'redirect', to: '/' });
  });
});

describe('normalizePermissions (spec §5)', () => {
  it('accepts a number', () => {
    expect(normalizePermissions(3)).toBe(3);
    expect(normalizePermissions(0)).toBe(0);
    expect(normalizePermissions('257')).toBe(257);
  });
  it('accepts an object of booleans', () => {
    expect(normalizePermissions({ text: true, file_share: false, mount_view: true })).toBe(
      Permission.TEXT | Permission.MOUNT_VIEW,
    );
    expect(normalizePermissions({ TEXT: true, WEBDAV_MANAGE: true })).toBe(Permission.TEXT | Permission.WEBDAV_MANAGE);
    expect(normalizePermissions({ text: true, file: true, mount: true })).toBe(
      Permission.TEXT | Permission.FILE_SHARE | MOUNT_PERMISSIONS,
    );
    expect(normalizePermissions({ unknown: true })).toBe(0);
  });
  it('rejects anything else', () => {
    expect(normalizePermissions(null)).toBeNull();
    expect(normalizePermissions(undefined)).toBeNull();
    expect(normalizePermissions(-1)).toBeNull();
    expect(normalizePermissions(1.5)).toBeNull();
    expect(normalizePermissions([1])).toBeNull();
  });
});
