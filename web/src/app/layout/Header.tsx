import { FilePenLine, FolderTree, Menu, Settings2, Upload, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { GithubIcon } from '../../components/GithubIcon';
import { Logo } from '../../components/Logo';
import { Dialog, DialogTrigger, DrawerContent } from '../../components/ui/dialog';
import { IconButton } from '../../components/ui/icon-button';
import { cn } from '../../lib/cn';
import { setLanguage } from '../../lib/i18n';
import { LANGUAGES } from '../../lib/language';
import { useSiteConfig } from '../../lib/siteConfig';
import { OfflineIndicator } from '../pwa/OfflineIndicator';
import { LanguageMenu } from './LanguageMenu';
import { ThemeToggle } from './ThemeToggle';

export const GITHUB_URL = 'https://github.com/clipnest/clipnest';

type NavKey = 'nav.home' | 'nav.upload' | 'nav.mountExplorer' | 'nav.admin';
const NAV: { to: string; key: NavKey; icon: LucideIcon; end?: boolean }[] = [
  { to: '/', key: 'nav.home', icon: FilePenLine, end: true },
  { to: '/upload', key: 'nav.upload', icon: Upload },
  { to: '/mount-explorer', key: 'nav.mountExplorer', icon: FolderTree },
  { to: '/admin', key: 'nav.admin', icon: Settings2 },
];

function MobileMenu() {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <IconButton label={t('nav.openMenu')} className="md:hidden">
          <Menu className="size-5" />
        </IconButton>
      </DialogTrigger>
      <DrawerContent title={t('nav.menu')}>
        <nav aria-label={t('nav.main')} className="flex flex-col gap-1">
          {NAV.map(({ to, key, icon: Icon, end }) => (
            <NavLink
              key={to}
              to={to}
              end={end}
              onClick={() => setOpen(false)}
              className={({ isActive }) =>
                cn(
                  'flex h-11 items-center gap-3 rounded-lg px-3 text-[15px] font-medium transition-colors',
                  isActive ? 'bg-primary-soft text-primary-soft-foreground' : 'text-foreground hover:bg-surface-hover',
                )
              }
            >
              <Icon className="size-[18px]" aria-hidden="true" />
              {t(key)}
            </NavLink>
          ))}
        </nav>
        <div className="mt-4 border-t border-border pt-4">
          <p className="px-3 pb-2 text-xs font-medium text-muted-foreground">{t('language.label')}</p>
          <div className="grid grid-cols-2 gap-2 px-1" role="group" aria-label={t('language.label')}>
            {LANGUAGES.map((code) => (
              <button
                key={code}
                type="button"
                lang={code}
                aria-pressed={i18n.language === code}
                onClick={() => setLanguage(code)}
                className={cn(
                  'h-10 rounded-lg border text-sm font-medium transition-colors',
                  i18n.language === code
                    ? 'border-primary bg-primary-soft text-primary-soft-foreground'
                    : 'border-border hover:bg-surface-hover',
                )}
              >
                {t(`language.${code}`)}
              </button>
            ))}
          </div>
          <a
            href={GITHUB_URL}
            target="_blank"
            rel="noreferrer noopener"
            className="mt-4 flex h-11 items-center gap-3 rounded-lg px-3 text-[15px] font-medium hover:bg-surface-hover"
          >
            <GithubIcon className="size-[18px]" />
            {t('app.githubShort')}
          </a>
        </div>
      </DrawerContent>
    </Dialog>
  );
}

export function Header() {
  const { t } = useTranslation();
  const site = useSiteConfig();
  return (
    <header className="sticky top-0 z-30 border-b border-border bg-background/85 backdrop-blur-md supports-[backdrop-filter]:bg-background/75">
      <div className="mx-auto flex h-14 max-w-screen-2xl items-center gap-2 px-3 sm:px-5">
        <Link
          to="/"
          className="-ms-1 flex min-w-0 items-center gap-2.5 rounded-lg px-1 py-1 font-semibold tracking-tight"
        >
          <Logo />
          <span className="truncate text-[17px]" data-testid="site-title">
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
