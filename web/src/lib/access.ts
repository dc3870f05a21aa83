/**
 * Who may see which admin page (spec §6). Pure functions of the session, unit-tested.
 */
import { MOUNT_PERMISSIONS, Permission, PERMISSION_NAMES, hasPermission } from '@clipnest/contract/permissions';
import type { Session } from './auth';
import { adminPagePath } from '../app/routes';

export const ADMIN_PAGES = [
  'dashboard',
  'text-management',
  'file-management',
  'key-management',
  'mount-management',
  'storage-config',
  'account',
  'backup',
  'audit-log',
  'settings/global',
  'settings/webdav',
  'settings/preview',
  'settings/site',
] as const;
export type AdminPage = (typeof ADMIN_PAGES)[number];

type Requirement = { kind: 'admin' } | { kind: 'permission'; bit: number };

const REQUIREMENTS: Record<AdminPage, Requirement> = {
  dashboard: { kind: 'admin' },
  'text-management': { kind: 'permission', bit: Permission.TEXT },
  'file-management': { kind: 'permission', bit: Permission.FILE_SHARE },
  'key-management': { kind: 'admin' },
  'mount-management': { kind: 'admin' },
  'storage-config': { kind: 'admin' },
  account: { kind: 'admin' },
  backup: { kind: 'admin' },
  'audit-log': { kind: 'admin' },
  'settings/global': { kind: 'admin' },
  'settings/webdav': { kind: 'admin' },
  'settings/preview': { kind: 'admin' },
  'settings/site': { kind: 'admin' },
};

export { adminPagePath };

/** Spec §6: a key holder may enter the admin area only with the text or file permission. */
export function canEnterAdminArea(session: Session): boolean {
  if (session.type === 'admin') return true;
  if (session.type === 'apikey') {
    return (
      hasPermission(session.permissions, Permission.TEXT) || hasPermission(session.permissions, Permission.FILE_SHARE)
    );
  }
  return false;
}

export function canSeeAdminPage(page: AdminPage, session: Session): boolean {
  if (session.type === 'admin') return true;
  if (session.type !== 'apikey') return false;
  const requirement = REQUIREMENTS[page];
  return requirement.kind === 'permission' && hasPermission(session.permissions, requirement.bit);
}

/** Where a key holder without access goes: text management, else file management, else Home. */
export function keyHolderFallback(permissions: number): string {
  if (hasPermission(permissions, Permission.TEXT)) return adminPagePath('text-management');
  if (hasPermission(permissions, Permission.FILE_SHARE)) return adminPagePath('file-management');
  return '/';
}

export type AdminAccess = { kind: 'login' } | { kind: 'allow' } | { kind: 'redirect'; to: string };

export function adminPageAccess(page: AdminPage, session: Session): AdminAccess {
  if (session.type === 'none') return { kind: 'login' };
  if (canSeeAdminPage(page, session)) return { kind: 'allow' };
  if (session.type === 'apikey') return { kind: 'redirect', to: keyHolderFallback(session.permissions) };
  return { kind: 'redirect', to: '/' };
}

export function visibleAdminPages(session: Session): AdminPage[] {
  return ADMIN_PAGES.filter((page) => canSeeAdminPage(page, session));
}

const PERMISSION_ALIASES: Record<string, number> = {
  file: Permission.FILE_SHARE,
  mount: MOUNT_PERMISSIONS,
  webdav: Permission.WEBDAV_READ | Permission.WEBDAV_MANAGE,
};

/**
 * Spec §5: permission answers are a number or an object of booleans
 * (`{ text: true, file_share: true, mount_view: false, … }`). Returns null when neither.
 */
export function normalizePermissions(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  let mask = 0;
  for (const [rawName, enabled] of Object.entries(value)) {
    if (enabled !== true) continue;
    const name = rawName.toUpperCase();
    const bit = (PERMISSION_NAMES as string[]).includes(name)
      ? Permission[name as keyof typeof Permission]
      : PERMISSION_ALIASES[rawName.toLowerCase()];
    if (bit !== undefined) mask |= bit;
  }
  return mask;
}
