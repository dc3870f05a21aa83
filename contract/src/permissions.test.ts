import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  Permission,
  hasMountAccess,
  hasPermission,
  isValidPermissionMask,
  permissionNames,
} from './permissions.js';

describe('permission bits', () => {
  it('matches spec §6', () => {
    expect(Permission).toEqual({
      TEXT: 1,
      FILE_SHARE: 2,
      MOUNT_VIEW: 256,
      MOUNT_UPLOAD: 512,
      MOUNT_COPY: 1024,
      MOUNT_RENAME: 2048,
      MOUNT_DELETE: 4096,
      WEBDAV_READ: 65536,
      WEBDAV_MANAGE: 131072,
    });
    expect(ALL_PERMISSIONS).toBe(1 + 2 + 256 + 512 + 1024 + 2048 + 4096 + 65536 + 131072);
  });

  it('accepts only defined bits', () => {
    expect(isValidPermissionMask(0)).toBe(true);
    expect(isValidPermissionMask(ALL_PERMISSIONS)).toBe(true);
    expect(isValidPermissionMask(4)).toBe(false);
    expect(isValidPermissionMask(-1)).toBe(false);
    expect(isValidPermissionMask(1.5)).toBe(false);
    expect(isValidPermissionMask(2 ** 40)).toBe(false);
  });

  it('checks bits and mount access', () => {
    expect(hasPermission(3, Permission.TEXT)).toBe(true);
    expect(hasPermission(2, Permission.TEXT)).toBe(false);
    expect(hasMountAccess(Permission.MOUNT_DELETE)).toBe(true);
    expect(hasMountAccess(Permission.TEXT | Permission.WEBDAV_READ)).toBe(false);
    expect(permissionNames(Permission.TEXT | Permission.WEBDAV_MANAGE)).toEqual(['TEXT', 'WEBDAV_MANAGE']);
  });
});
