/**
 * The app's one route manifest: which address shows which screen, the texts that screen needs, its title and what
 * a cold load of it preloads. The router (app/router.tsx), the document title, and the build's route-preload plugin
 * (vite.config.ts) all read it, so a screen is declared once. Plain data with type-only imports: the build reads
 * it in Node.
 */
import type { AdminPage } from '../lib/access';
import type { TextArea } from '../lib/i18n';
import type { AdminPageLabelKey, TitleKey } from './routeMeta';

/** A screen's source module under src/, whose default export is the screen. */
export type ScreenModule = `features/${string}/${string}Page.tsx`;

export interface ScreenRoute {
  /** The address pattern (wouter's: `:name` is one segment, `*?` the rest of the path, possibly empty). */
  path: string;
  module: ScreenModule;
  /** Text areas the screen renders with, loaded with its code (lib/i18n.ts). */
  areas: readonly TextArea[];
  title: TitleKey;
  /** Modules under src/ its first render needs besides its own chunk (preloaded on a cold load). */
  preload?: readonly string[];
}

export const PUBLIC_ROUTES = [
  { path: '/', module: 'features/home/HomePage.tsx', areas: ['paste', 'files'], title: 'pageTitle.home' },
  { path: '/upload', module: 'features/upload/UploadPage.tsx', areas: ['files', 'paste'], title: 'pageTitle.upload' },
  {
    path: '/paste/:slug',
    module: 'features/paste-view/PasteViewPage.tsx',
    areas: ['paste'],
    title: 'pageTitle.pasteView',
    preload: ['components/markdown/runtime.ts'],
  },
  { path: '/file/:slug', module: 'features/file-view/FileViewPage.tsx', areas: ['files'], title: 'pageTitle.fileView' },
  { path: '/s/:slug', module: 'features/file-view/ShareViewPage.tsx', areas: ['files'], title: 'pageTitle.shareView' },
  {
    path: '/r/:slug',
    module: 'features/file-view/UploadRequestPage.tsx',
    areas: ['files'],
    title: 'pageTitle.uploadRequest',
  },
  {
    path: '/mount-explorer/*?',
    module: 'features/mount-explorer/MountExplorerPage.tsx',
    areas: ['files', 'fs'],
    title: 'pageTitle.mountExplorer',
  },
  // A Nextcloud/ownCloud app's sign-in (Login Flow v2): the admin approves or denies it here.
  {
    path: '/connect/:token',
    module: 'features/auth/ConnectPage.tsx',
    areas: ['connect', 'login'],
    title: 'pageTitle.connect',
  },
] as const satisfies readonly ScreenRoute[];

/** The admin frame (login, sidebar, guards): loads with the first admin page, never on a public page. */
export const ADMIN_GATE_MODULE = 'app/admin/AdminGate.tsx';
/** The frame's own texts (its session check, the login it shows without a session, the sidebar). */
export const ADMIN_FRAME_AREAS = ['admin', 'login'] as const satisfies readonly TextArea[];

/** Admin screens show the panel texts plus the paste/file texts of their lists and dialogs. */
const ADMIN_AREAS = ['adminPanel', 'files', 'paste'] as const satisfies readonly TextArea[];
/** …and the storage tree's texts where a folder is picked or mounted. */
const ADMIN_TREE_AREAS = [...ADMIN_AREAS, 'fs'] as const satisfies readonly TextArea[];

function admin(
  page: AdminPage,
  module: ScreenModule,
  title: AdminPageLabelKey,
  areas: readonly TextArea[] = ADMIN_AREAS,
): ScreenRoute & { page: AdminPage; title: AdminPageLabelKey } {
  return { page, path: adminPagePath(page), module, areas, title };
}

export const ADMIN_ROUTES = [
  admin('dashboard', 'features/dashboard/DashboardPage.tsx', 'admin.pages.dashboard'),
  admin('text-management', 'features/text-management/TextManagementPage.tsx', 'admin.pages.textManagement'),
  admin('file-management', 'features/file-management/FileManagementPage.tsx', 'admin.pages.fileManagement'),
  admin('key-management', 'features/api-keys/KeyManagementPage.tsx', 'admin.pages.keyManagement', [
    ...ADMIN_TREE_AREAS,
    'keys',
    'permissions',
    'roles',
  ]),
  admin(
    'mount-management',
    'features/mount-management/MountManagementPage.tsx',
    'admin.pages.mountManagement',
    ADMIN_TREE_AREAS,
  ),
  admin('storage-config', 'features/storage-config/StorageConfigPage.tsx', 'admin.pages.storageConfig'),
  admin('account', 'features/account/AccountPage.tsx', 'admin.pages.account'),
  admin('backup', 'features/backup/BackupPage.tsx', 'admin.pages.backup'),
  admin('audit-log', 'features/audit-log/AuditLogPage.tsx', 'admin.pages.auditLog'),
  admin('settings/global', 'features/settings-global/GlobalSettingsPage.tsx', 'admin.pages.settingsGlobal'),
  admin('settings/webdav', 'features/settings-webdav/WebdavSettingsPage.tsx', 'admin.pages.settingsWebdav'),
  admin('settings/preview', 'features/settings-preview/PreviewSettingsPage.tsx', 'admin.pages.settingsPreview'),
  admin('settings/site', 'features/settings-site/SiteSettingsPage.tsx', 'admin.pages.settingsSite'),
];

/** The sidebar's and title's label of each admin page. */
export const ADMIN_PAGE_LABELS = Object.fromEntries(ADMIN_ROUTES.map((route) => [route.page, route.title])) as Record<
  AdminPage,
  AdminPageLabelKey
>;

/** The address of an admin page. */
export function adminPagePath(page: AdminPage): string {
  return page === 'dashboard' ? '/admin' : `/admin/${page}`;
}

/** Every admin page's address (and nothing else below /admin), trailing slash allowed, any letter case. */
export const ADMIN_PATH = new RegExp(
  `^/admin(?:/(?:${ADMIN_ROUTES.filter((route) => route.page !== 'dashboard')
    .map((route) => route.page)
    .join('|')}))?/?$`,
  'i',
);

/**
 * What a cold load of an address preloads, by the address's first segment (the build's route-preload plugin):
 * source modules relative to web/, `{lang}` standing for the reader's language. Admin addresses preload the frame
 * only: without a session it shows the login, not the page.
 */
export function firstLoadModules(): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const route of PUBLIC_ROUTES as readonly ScreenRoute[]) {
    const segment = route.path.split('/')[1] ?? '';
    map[segment] = [
      `src/${route.module}`,
      ...(route.preload ?? []).map((module) => `src/${module}`),
      ...route.areas.map((area) => `src/locales/{lang}/${area}.json`),
    ];
  }
  map.admin = [`src/${ADMIN_GATE_MODULE}`, ...ADMIN_FRAME_AREAS.map((area) => `src/locales/{lang}/${area}.json`)];
  return map;
}
