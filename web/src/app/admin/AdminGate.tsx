import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Redirect } from 'wouter';
import { PageFallback } from '../../components/PageFallback';
import { Skeleton } from '../../components/ui/skeleton';
import LoginPage from '../../features/auth/LoginPage';
import { adminPageAccess, canEnterAdminArea, type AdminPage } from '../../lib/access';
import { getLastValidatedAt } from '../../lib/auth';
import { revalidateSession, validationAttempted } from '../../lib/sessionValidation';
import { useSession } from '../../lib/useSession';

// The sidebar (with its Radix drawer and menus) loads with the first signed-in page, not with the login.
const AdminSidebar = lazy(() => import('./AdminSidebar').then((m) => ({ default: m.AdminSidebar })));
const AdminMobileBar = lazy(() => import('./AdminSidebar').then((m) => ({ default: m.AdminMobileBar })));

function AdminSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex w-full max-w-screen-2xl flex-1" aria-busy="true">
      <span className="sr-only" role="status">
        {t('admin.checkingSession')}
      </span>
      <div className="hidden w-64 shrink-0 flex-col gap-2 border-e border-border px-4 py-6 lg:flex">
        <Skeleton className="mb-4 h-9 w-40" />
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-8 w-full" />
        ))}
      </div>
      <div className="flex-1 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        <Skeleton className="h-8 w-56" />
        <Skeleton className="mt-3 h-4 w-80 max-w-full" />
        <Skeleton className="mt-8 h-64 w-full" />
      </div>
    </div>
  );
}

/**
 * /admin: the login page when signed out; otherwise the panel. Credentials that were never checked in
 * this page view are verified first, so a revoked token never flashes the panel (spec §4).
 */
export function AdminGate({ children }: { children: ReactNode }) {
  const session = useSession();
  const [, setChecked] = useState(0);
  const unchecked = session.type !== 'none' && getLastValidatedAt() === null && !validationAttempted();

  useEffect(() => {
    if (!unchecked) return;
    let alive = true;
    void revalidateSession().then(() => {
      if (alive) setChecked((n) => n + 1);
    });
    return () => {
      alive = false;
    };
  }, [unchecked, session.type]);

  if (session.type === 'none') return <LoginPage />;
  if (unchecked) return <AdminSkeleton />;
  if (!canEnterAdminArea(session)) return <Redirect to="/" replace />;
  return (
    <div className="mx-auto flex w-full max-w-screen-2xl flex-1">
      <Suspense fallback={<div className="hidden w-64 shrink-0 border-e border-border lg:block" />}>
        <AdminSidebar />
      </Suspense>
      <div className="min-w-0 flex-1">
        <Suspense fallback={null}>
          <AdminMobileBar />
        </Suspense>
        <div className="px-4 py-6 sm:px-6 lg:px-10 lg:py-8">
          <Suspense fallback={<PageFallback variant="admin" />}>{children}</Suspense>
        </div>
      </div>
    </div>
  );
}

/** Per-page guard (spec §6). */
export function RequireAdminPage({ page, children }: { page: AdminPage; children: ReactNode }) {
  const session = useSession();
  const access = adminPageAccess(page, session);
  if (access.kind === 'redirect') return <Redirect to={access.to} replace />;
  if (access.kind === 'login') return null;
  return <>{children}</>;
}
