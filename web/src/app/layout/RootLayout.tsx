import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { PageFallback } from '../../components/PageFallback';
import { cn } from '../../lib/cn';
import { PwaLayer } from '../pwa/PwaLayer';
import { RouteErrorBoundary } from '../pwa/RouteErrorBoundary';
import { PwaUpdatePrompt } from '../PwaUpdatePrompt';
import { AnnouncementBanner } from './AnnouncementBanner';
import { DocumentTitle } from './DocumentTitle';
import { Footer } from './Footer';
import { Header } from './Header';
import { SessionWatcher } from './SessionWatcher';
import { SiteCustomizations } from './SiteCustomizations';

export function RootLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const onAdmin = pathname === '/admin' || pathname.startsWith('/admin/');
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:start-3 focus:top-3"
      >
        {t('app.skipToContent')}
      </a>
      <Header />
      <main
        id="main"
        tabIndex={-1}
        // Public pages fill the screen, so the footer starts below the fold and never jumps as a lazy screen arrives.
        className={cn('flex flex-1 flex-col outline-none', !onAdmin && 'min-h-dvh px-4 py-8 sm:px-6 sm:py-12')}
      >
        {pathname === '/' && <AnnouncementBanner />}
        <RouteErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      {!onAdmin && <Footer />}
      <DocumentTitle />
      <SiteCustomizations />
      <SessionWatcher />
      <PwaUpdatePrompt />
      <PwaLayer />
    </div>
  );
}
