import { ALL_PERMISSIONS, Permission } from '@clipnest/contract';

/** CloudPaste 1.9.1 permission bits and the Clipnest bit each one maps to (name by name). */
export const CLOUDPASTE_PERMISSIONS: readonly { name: string; bit: number; maps: number; note?: string }[] = [
  { name: 'TEXT_SHARE', bit: 1, maps: Permission.TEXT },
  { name: 'FILE_SHARE', bit: 2, maps: Permission.FILE_SHARE },
  {
    name: 'TEXT_MANAGE',
    bit: 4,
    maps: Permission.TEXT,
    note: 'TEXT_MANAGE becomes TEXT (a key manages the pastes it created)',
  },
  {
    name: 'FILE_MANAGE',
    bit: 8,
    maps: Permission.FILE_SHARE,
    note: 'FILE_MANAGE becomes FILE_SHARE (a key manages the file shares it created)',
  },
  { name: 'MOUNT_VIEW', bit: 256, maps: Permission.MOUNT_VIEW },
  { name: 'MOUNT_UPLOAD', bit: 512, maps: Permission.MOUNT_UPLOAD },
  { name: 'MOUNT_COPY', bit: 1024, maps: Permission.MOUNT_COPY },
  { name: 'MOUNT_RENAME', bit: 2048, maps: Permission.MOUNT_RENAME },
  { name: 'MOUNT_DELETE', bit: 4096, maps: Permission.MOUNT_DELETE },
  { name: 'WEBDAV_READ', bit: 65536, maps: Permission.WEBDAV_READ },
  { name: 'WEBDAV_MANAGE', bit: 131072, maps: Permission.WEBDAV_MANAGE },
];

/** Our mask for a CloudPaste mask, with notes on bits folded into another or dropped. */
export function mapPermissions(mask: number): { permissions: number; notes: string[] } {
  let permissions = 0;
  let known = 0;
  const notes: string[] = [];
  for (const entry of CLOUDPASTE_PERMISSIONS) {
    known |= entry.bit;
    if ((mask & entry.bit) === entry.bit) {
      permissions |= entry.maps;
      if (entry.note) notes.push(entry.note);
    }
  }
  // Bitwise ops are 32-bit: every known bit is below 2^31.
  const unknown = mask & ~known;
  if (unknown !== 0) notes.push(`unknown permission bits ${unknown} have no counterpart and were dropped`);
  return { permissions: permissions & ALL_PERMISSIONS, notes };
}

/** CloudPaste roles (GUEST, GENERAL, ADMIN) → our role presets; GUEST also sets is_guest. */
export function mapRole(role: string | null | undefined): { role: 'GENERAL' | 'FULL'; isGuest: 0 | 1 } {
  switch ((role ?? 'GENERAL').toUpperCase()) {
    case 'GUEST':
      return { role: 'GENERAL', isGuest: 1 };
    case 'ADMIN':
      return { role: 'FULL', isGuest: 0 };
    default:
      return { role: 'GENERAL', isGuest: 0 };
  }
}
