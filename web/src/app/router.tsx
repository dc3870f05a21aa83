import { createElement, lazy, type ComponentType, type ReactNode } from 'react';
import { Navigate, useRoutes, type RouteObject } from '../lib/router';
import type { AdminPage } from '../lib/access';
import { loadTextAreas, type TextArea } from '../lib/i18n';
import { RootLayout } from './layout/RootLayout';
import { ADMIN_PAGE_LABELS, type RouteHandle } from './routeMeta';

/**
 * A screen chunk that renders once its code and the text areas it uses are in, both fetched at once.
 * `preload` starts both early (main.tsx calls it for the first URL, in parallel with the core texts, and renders
 * once they are in). A screen already loaded renders at once: unlike `lazy`, no fallback is committed first and
 * replaced a moment later (a second render of the page on every cold load, issue 21). While loading it suspends;
 * a failed load goes to the route's error boundary, and the next render tries again.
 */
function screen(load: () => Promise<{ default: ComponentType }>, areas: readonly TextArea[] = []) {
  let loaded: ComponentType | undefined;
  let failure: { error: unknown } | undefined;
  let pending: Promise<void> | undefined;
  const preload = () =>
    (pending ??= Promise.all([load(), loadTextAreas(areas)]).then(
      ([module]) => {
        loaded = module.default;
      },
      (error: unknown) => {
        failure = { error };
        pending = undefined;
      },
    ));
  function Screen() {
    if (loaded) return createElement(loaded);
    if (failure) {
      const { error } = failure;
      failure = undefined;
      throw error;
    }
    // Suspense waits for a thrown promise, then renders this again.
    throw preload();
  }
  return Object.assign(Screen, { preload });
}

/** Admin screens: the panel texts plus the paste/file texts their lists and dialogs show. */
const ADMIN_AREAS: readonly TextArea[] = ['adminPanel', 'files', 'paste'];

// The admin frame (login, sidebar, guards) loads with the first admin page, never on a public page.
const AdminGate = screen(() => import('./admin/AdminGate').then((m) => ({ default: m.AdminGate })));
const RequireAdminPage = lazy(() => import('./admin/AdminGate').then((m) => ({ default: m.RequireAdminPage })));
// Every screen is its own chunk: the shell stays small as later issues add heavy editors and viewers.
const AccountPage = screen(() => import('../features/account/AccountPage'), ADMIN_AREAS);
const KeyManagementPage = screen(() => import('../features/api-keys/KeyManagementPage'), ADMIN_AREAS);
const BackupPage = screen(() => import('../features/backup/BackupPage'), ADMIN_AREAS);
const DashboardPage = screen(() => import('../features/dashboard/DashboardPage'), ADMIN_AREAS);
const FileManagementPage = screen(() => import('../features/file-management/FileManagementPage'), ADMIN_AREAS);
const FileViewPage = screen(() => import('../features/file-view/FileViewPage'), ['files']);
const HomePage = screen(() => import('../features/home/HomePage'), ['paste', 'files']);
const MountExplorerPage = screen(() => import('../features/mount-explorer/MountExplorerPage'), ['files']);
const MountManagementPage = screen(() => import('../features/mount-management/MountManagementPage'), ADMIN_AREAS);
const PasteViewPage = screen(() => import('../features/paste-view/PasteViewPage'), ['paste']);
const GlobalSettingsPage = screen(() => import('../features/settings-global/GlobalSettingsPage'), ADMIN_AREAS);
const PreviewSettingsPage = screen(() => import('../features/settings-preview/PreviewSettingsPage'), ADMIN_AREAS);
const SiteSettingsPage = screen(() => import('../features/settings-site/SiteSettingsPage'), ADMIN_AREAS);
const WebdavSettingsPage = screen(() => import('../features/settings-webdav/WebdavSettingsPage'), ADMIN_AREAS);
const StorageConfigPage = screen(() => import('../features/storage-config/StorageConfigPage'), ADMIN_AREAS);
const TextManagementPage = screen(() => import('../features/text-management/TextManagementPage'), ADMIN_AREAS);
const UploadPage = screen(() => import('../features/upload/UploadPage'), ['files', 'paste']);

const ADMIN_SCREENS: Record<string, { preload: () => Promise<unknown> }> = {
  '': DashboardPage,
  'text-management': TextManagementPage,
  'file-management': FileManagementPage,
  'key-management': KeyManagementPage,
  'mount-management': MountManagementPage,
  'storage-config': StorageConfigPage,
  account: AccountPage,
  backup: BackupPage,
  'settings/global': GlobalSettingsPage,
  'settings/webdav': WebdavSettingsPage,
  'settings/preview': PreviewSettingsPage,
  'settings/site': SiteSettingsPage,
};

/**
 * Starts loading the screen of `pathname` (code and texts) before the first render, so the route chunk does not
 * wait for the shell to render first. Admin screens load only with a saved session (else the login shows).
 */
export function preloadScreen(pathname: string, signedIn: boolean): Promise<unknown> {
  const path = pathname.replace(/\/+$/, '');
  const first = path.split('/')[1] ?? '';
  const screens: Record<string, { preload: () => Promise<unknown> } | undefined> = {
    '': HomePage,
    upload: UploadPage,
    paste: PasteViewPage,
    file: FileViewPage,
    'mount-explorer': MountExplorerPage,
  };
  if (first === 'admin') {
    const gate = AdminGate.preload();
    if (!signedIn) return gate;
    void import('./admin/AdminSidebar');
    return Promise.all([gate, ADMIN_SCREENS[path.slice('/admin/'.length)]?.preload()]);
  }
  return screens[first]?.preload() ?? Promise.resolve();
}

function adminRoute(page: AdminPage, element: ReactNode): RouteObject {
  const handle: RouteHandle = { titleKey: ADMIN_PAGE_LABELS[page] };
  const guarded = <RequireAdminPage page={page}>{element}</RequireAdminPage>;
  return page === 'dashboard' ? { index: true, element: guarded, handle } : { path: page, element: guarded, handle };
}

const handle = (titleKey: RouteHandle['titleKey']): RouteHandle => ({ titleKey });

/** Routes exactly as spec §2; any unknown path redirects to `/`. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <HomePage />, handle: handle('pageTitle.home') },
      { path: 'upload', element: <UploadPage />, handle: handle('pageTitle.upload') },
      { path: 'paste/:slug', element: <PasteViewPage />, handle: handle('pageTitle.pasteView') },
      { path: 'file/:slug', element: <FileViewPage />, handle: handle('pageTitle.fileView') },
      { path: 'mount-explorer/*', element: <MountExplorerPage />, handle: handle('pageTitle.mountExplorer') },
      {
        path: 'admin',
        element: <AdminGate />,
        children: [
          adminRoute('dashboard', <DashboardPage />),
          adminRoute('text-management', <TextManagementPage />),
          adminRoute('file-management', <FileManagementPage />),
          adminRoute('key-management', <KeyManagementPage />),
          adminRoute('mount-management', <MountManagementPage />),
          adminRoute('storage-config', <StorageConfigPage />),
          adminRoute('account', <AccountPage />),
          adminRoute('backup', <BackupPage />),
          adminRoute('settings/global', <GlobalSettingsPage />),
          adminRoute('settings/webdav', <WebdavSettingsPage />),
          adminRoute('settings/preview', <PreviewSettingsPage />),
          adminRoute('settings/site', <SiteSettingsPage />),
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/** The routes of the address (lib/router): the app loads no route data, each screen fetches its own. */
export function AppRoutes() {
  return useRoutes(routes);
}
