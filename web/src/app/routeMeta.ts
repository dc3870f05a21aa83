import type { AdminPage } from '../lib/access';

export type AdminPageLabelKey =
  | 'admin.pages.dashboard'
  | 'admin.pages.textManagement'
  | 'admin.pages.fileManagement'
  | 'admin.pages.keyManagement'
  | 'admin.pages.mountManagement'
  | 'admin.pages.storageConfig'
  | 'admin.pages.account'
  | 'admin.pages.backup'
  | 'admin.pages.settingsGlobal'
  | 'admin.pages.settingsWebdav'
  | 'admin.pages.settingsPreview'
  | 'admin.pages.settingsSite';

export type TitleKey =
  | 'pageTitle.home'
  | 'pageTitle.upload'
  | 'pageTitle.pasteView'
  | 'pageTitle.fileView'
  | 'pageTitle.mountExplorer'
  | 'pageTitle.notFound'
  | 'pageTitle.login'
  | AdminPageLabelKey;

/** Attached to routes as `handle`; the shell builds `{subtitle} - {site title}` from it. */
export interface RouteHandle {
  titleKey: TitleKey;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && typeof (value as RouteHandle).titleKey === 'string';
}

export const ADMIN_PAGE_LABELS: Record<AdminPage, AdminPageLabelKey> = {
  dashboard: 'admin.pages.dashboard',
  'text-management': 'admin.pages.textManagement',
  'file-management': 'admin.pages.fileManagement',
  'key-management': 'admin.pages.keyManagement',
  'mount-management': 'admin.pages.mountManagement',
  'storage-config': 'admin.pages.storageConfig',
  account: 'admin.pages.account',
  backup: 'admin.pages.backup',
  'settings/global': 'admin.pages.settingsGlobal',
  'settings/webdav': 'admin.pages.settingsWebdav',
  'settings/preview': 'admin.pages.settingsPreview',
  'settings/site': 'admin.pages.settingsSite',
};

/** Document title: `{page subtitle} - {site title}`, or just the site title without a subtitle. */
export function buildDocumentTitle(subtitle: string | null, siteTitle: string): string {
  return subtitle ? `${subtitle} - ${siteTitle}` : siteTitle;
}
