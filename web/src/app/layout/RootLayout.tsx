import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { useSearch } from 'wouter/use-browser-location';
import { usePathname } from '../../lib/navigation';
import { PageFallback } from '../../components/PageFallback';
import { cn } from '../../lib/cn';
import { readEnvState, wantsEnvSwitcher } from '../../lib/envSwitch';
import { withTextAreas } from '../../lib/i18n';
import { useSession } from '../../lib/useSession';
import { PwaLayer } from '../pwa/PwaLayer';
import { RouteErrorBoundary } from '../pwa/RouteErrorBoundary';
import { AnnouncementBanner } from './AnnouncementBanner';
import { DocumentTitle } from './DocumentTitle';
import { Footer } from './Footer';
import { FRAME_CLASS, MAIN_CLASS, PUBLIC_MAIN_CLASS } from './frame';
import { Header } from './Header';
import { SessionWatcher } from './SessionWatcher';
import { SiteCustomizations } from './SiteCustomizations';

// The service worker registers once the page has loaded and the browser is idle: its code and its
// precache (the shell only, see pwaPrecache.ts) never compete with the first screen.
// The environment switcher (spec §1) loads only when the address asks for it.
const EnvSwitcher = lazy(() => withTextAreas(['envSwitcher'], () => import('./EnvSwitcher')));
const PwaUpdatePrompt = lazy(() => import('../PwaUpdatePrompt').then((m) => ({ default: m.PwaUpdatePrompt })));

function useAfterLoadAndIdle(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let idle: number | undefined;
    const whenIdle = () => {
      idle = window.requestIdleCallback
        ? window.requestIdleCallback(() => setReady(true), { timeout: 5000 })
        : window.setTimeout(() => setReady(true), 1000);
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
    return () => {
      window.removeEventListener('load', whenIdle);
      if (idle !== undefined) (window.cancelIdleCallback ?? window.clearTimeout)(idle);
    };
  }, []);
  return ready;
}

/** Its own component, so that the layout around it does not render again when the browser turns idle. */
function DeferredPwaUpdatePrompt() {
  const ready = useAfterLoadAndIdle();
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <PwaUpdatePrompt />
    </Suspense>
  );
}

/** `?showEnvSwitcher`: for the admin, or while another server is chosen (the way back needs no login there). */
function EnvSwitcherHost() {
  const search = useSearch();
  const session = useSession();
  if (!wantsEnvSwitcher(search)) return null;
  if (session.type !== 'admin' && readEnvState().saved === null) return null;
  return (
    <Suspense fallback={null}>
      <EnvSwitcher />
    </Suspense>
  );
}

/** The frame around every screen: header, the screen (`children`), footer and the app-wide helpers. */
export function RootLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const pathname = usePathname();
  const onAdmin = pathname === '/admin' || pathname.startsWith('/admin/');
  return (
    <div className={FRAME_CLASS}>
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:start-3 focus:top-3"
      >
        {t('app.skipToContent')}
      </a>
      <Header />
      <main id="main" tabIndex={-1} className={cn(MAIN_CLASS, !onAdmin && PUBLIC_MAIN_CLASS)}>
        {pathname === '/' && <AnnouncementBanner />}
        <RouteErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageFallback />}>{children}</Suspense>
        </RouteErrorBoundary>
      </main>
      {!onAdmin && <Footer />}
      <DocumentTitle />
      <SiteCustomizations />
      <SessionWatcher />
      <DeferredPwaUpdatePrompt />
      <PwaLayer />
      <EnvSwitcherHost />
    </div>
  );
}
