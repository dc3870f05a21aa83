import { lazy, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import type { AdminPage } from '../lib/access';
import { RootLayout } from './layout/RootLayout';
import { ADMIN_PAGE_LABELS, type RouteHandle } from './routeMeta';

// The admin frame (login, sidebar, guards) loads with the first admin page, never on a public page.
const AdminGate = lazy(() => import('./admin/AdminGate').then((m) => ({ default: m.AdminGate })));
const RequireAdminPage = lazy(() => import('./admin/AdminGate').then((m) => ({ default: m.RequireAdminPage })));
// Every screen is its own chunk: the shell stays small as later issues add heavy editors and viewers.
const AccountPage = lazy(() => import('../features/account/AccountPage'));
const KeyManagementPage = lazy(() => import('../features/api-keys/KeyManagementPage'));
const BackupPage = lazy(() => import('../features/backup/BackupPage'));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage'));
const FileManagementPage = lazy(() => import('../features/file-management/FileManagementPage'));
const FileViewPage = lazy(() => import('../features/file-view/FileViewPage'));
const HomePage = lazy(() => import('../features/home/HomePage'));
const MountExplorerPage = lazy(() => import('../features/mount-explorer/MountExplorerPage'));
const MountManagementPage = lazy(() => import('../features/mount-management/MountManagementPage'));
const PasteViewPage = lazy(() => import('../features/paste-view/PasteViewPage'));
const GlobalSettingsPage = lazy(() => import('../features/settings-global/GlobalSettingsPage'));
const PreviewSettingsPage = lazy(() => import('../features/settings-preview/PreviewSettingsPage'));
const SiteSettingsPage = lazy(() => import('../features/settings-site/SiteSettingsPage'));
const WebdavSettingsPage = lazy(() => import('../features/settings-webdav/WebdavSettingsPage'));
const StorageConfigPage = lazy(() => import('../features/storage-config/StorageConfigPage'));
const TextManagementPage = lazy(() => import('../features/text-management/TextManagementPage'));
const UploadPage = lazy(() => import('../features/upload/UploadPage'));

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

export function createAppRouter() {
  return createBrowserRouter(routes);
}
