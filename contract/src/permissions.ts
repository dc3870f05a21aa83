/** API key permission bits (spec §6). Admins hold every bit. */
export const Permission = {
  TEXT: 1,
  FILE_SHARE: 2,
  MOUNT_VIEW: 256,
  MOUNT_UPLOAD: 512,
  MOUNT_COPY: 1024,
  MOUNT_RENAME: 2048,
  MOUNT_DELETE: 4096,
  WEBDAV_READ: 65536,
  WEBDAV_MANAGE: 131072,
} as const;

export type PermissionName = keyof typeof Permission;

export const PERMISSION_NAMES = Object.keys(Permission) as PermissionName[];

/** Every defined bit; a mask with any other bit set is invalid. */
export const ALL_PERMISSIONS = PERMISSION_NAMES.reduce((mask, name) => mask | Permission[name], 0);

export const MOUNT_PERMISSIONS =
  Permission.MOUNT_VIEW |
  Permission.MOUNT_UPLOAD |
  Permission.MOUNT_COPY |
  Permission.MOUNT_RENAME |
  Permission.MOUNT_DELETE;

export function isValidPermissionMask(mask: number): boolean {
  return Number.isInteger(mask) && mask >= 0 && mask <= ALL_PERMISSIONS && (mask & ~ALL_PERMISSIONS) === 0;
}

export function hasPermission(mask: number, bit: number): boolean {
  return (mask & bit) === bit;
}

/** "Any mount permission counts as general mount access" (spec §6). */
export function hasMountAccess(mask: number): boolean {
  return (mask & MOUNT_PERMISSIONS) !== 0;
}

export function permissionNames(mask: number): PermissionName[] {
  return PERMISSION_NAMES.filter((name) => hasPermission(mask, Permission[name]));
}

/** Role presets offered by the key form; GENERAL is the default role. */
export const KEY_ROLES = ['GENERAL', 'READONLY', 'UPLOADER', 'FULL'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

export const ROLE_PRESETS: Record<KeyRole, number> = {
  GENERAL: Permission.TEXT | Permission.FILE_SHARE,
  READONLY: Permission.MOUNT_VIEW | Permission.WEBDAV_READ,
  UPLOADER: Permission.TEXT | Permission.FILE_SHARE | Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD,
  FULL: ALL_PERMISSIONS,
};
