import { FilePenLine, FolderTree, Menu, Settings2, Upload, type LucideIcon } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { Link } from 'wouter';
import { NavLink } from '../../lib/navigation';
import { GithubIcon } from '../../components/GithubIcon';
import { Logo } from '../../components/Logo';
import { BRAND_CLASS, BRAND_TITLE_CLASS, HEADER_CLASS, HEADER_ROW_CLASS } from './frame';
import { IconButton, type IconButtonProps } from '../../components/ui/icon-button';
import { cn } from '../../lib/cn';
import { useSiteConfig } from '../../lib/siteConfig';
import { OfflineIndicator } from '../pwa/OfflineIndicator';
import { LanguageMenu } from './LanguageMenu';
import { ThemeToggle } from './ThemeToggle';

export const GITHUB_URL = 'https://github.com/clipnest/clipnest';

export type NavKey = 'nav.home' | 'nav.upload' | 'nav.mountExplorer' | 'nav.admin';
export const NAV: { to: string; key: NavKey; icon: LucideIcon; end?: boolean }[] = [
  { to: '/', key: 'nav.home', icon: FilePenLine, end: true },
  { to: '/upload', key: 'nav.upload', icon: Upload },
  { to: '/mount-explorer', key: 'nav.mountExplorer', icon: FolderTree },
  { to: '/admin', key: 'nav.admin', icon: Settings2 },
];

const HeaderMenus = () => import('./HeaderMenus');
const MobileMenuDrawer = lazy(() => HeaderMenus().then((m) => ({ default: m.MobileMenuDrawer })));

export function MobileMenuButton(props: Omit<IconButtonProps, 'label' | 'children'>) {
  const { t } = useTranslation();
  return (
    <IconButton label={t('nav.openMenu')} className="md:hidden" aria-haspopup="dialog" {...props}>
      <Menu className="size-5" />
    </IconButton>
  );
}

/** The drawer and its Radix dialog load when the menu is first opened (or hovered); until then a plain button. */
function MobileMenu() {
  const [opened, setOpened] = useState(false);
  const preload = () => void HeaderMenus();
  const button = <MobileMenuButton onClick={() => setOpened(true)} onPointerEnter={preload} onFocus={preload} />;
  if (!opened) return button;
  return (
    <Suspense fallback={button}>
      <MobileMenuDrawer />
    </Suspense>
  );
}

export function Header() {
  const { t } = useTranslation();
  const site = useSiteConfig();
  return (
    <header className={HEADER_CLASS}>
      <div className={HEADER_ROW_CLASS}>
        <Link to="/" className={BRAND_CLASS}>
          <Logo />
          <span className={BRAND_TITLE_CLASS} data-testid="site-title">
            {site.site_title}
          </span>
        </Link>
        <nav aria-label={t('nav.main')} className="ms-4 hidden items-center gap-0.5 md:flex">
          {NAV.map(({ to, key, end }) => (
            <NavLink
              key={to}
              to={to}
              end={end}
              className={({ isActive }) =>
                cn(
                  'inline-flex h-9 items-center rounded-lg px-3 text-sm font-medium transition-colors',
                  isActive
                    ? 'bg-primary-soft text-primary-soft-foreground'
                    : 'text-muted-foreground hover:bg-surface-hover hover:text-foreground',
                )
              }
            >
              {t(key)}
            </NavLink>
          ))}
        </nav>
        <div className="ms-auto flex items-center gap-0.5">
          <OfflineIndicator />
          <IconButton label={t('app.github')} asChild className="hidden sm:inline-flex">
            <a href={GITHUB_URL} target="_blank" rel="noreferrer noopener">
              <GithubIcon className="size-[18px]" />
            </a>
          </IconButton>
          <div className="hidden md:block">
            <LanguageMenu />
          </div>
          <ThemeToggle />
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}
