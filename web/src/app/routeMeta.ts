export type AdminPageLabelKey =
  | 'admin.pages.dashboard'
  | 'admin.pages.textManagement'
  | 'admin.pages.fileManagement'
  | 'admin.pages.keyManagement'
  | 'admin.pages.mountManagement'
  | 'admin.pages.storageConfig'
  | 'admin.pages.account'
  | 'admin.pages.backup'
  | 'admin.pages.auditLog'
  | 'admin.pages.settingsGlobal'
  | 'admin.pages.settingsWebdav'
  | 'admin.pages.settingsPreview'
  | 'admin.pages.settingsSite';

export type TitleKey =
  | 'pageTitle.home'
  | 'pageTitle.upload'
  | 'pageTitle.pasteView'
  | 'pageTitle.fileView'
  | 'pageTitle.shareView'
  | 'pageTitle.uploadRequest'
  | 'pageTitle.mountExplorer'
  | 'pageTitle.notFound'
  | 'pageTitle.login'
  | 'pageTitle.connect'
  | AdminPageLabelKey;

/** Document title: `{page subtitle} - {site title}`, or just the site title without a subtitle. */
export function buildDocumentTitle(subtitle: string | null, siteTitle: string): string {
  return subtitle ? `${subtitle} - ${siteTitle}` : siteTitle;
}
