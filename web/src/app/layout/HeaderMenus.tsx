// The header's menus (language dropdown, mobile drawer) with their Radix parts: a chunk of its own that loads when
// one is first opened or hovered (Header.tsx, LanguageMenu.tsx), so a first visit does not download them.
import { useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { NavLink } from '../../lib/navigation';
import { GithubIcon } from '../../components/GithubIcon';
import { Dialog, DialogTrigger, DrawerContent } from '../../components/ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { Tooltip } from '../../components/ui/tooltip';
import { cn } from '../../lib/cn';
import { currentLanguage, setLanguage } from '../../lib/i18n';
import { isLanguage, LANGUAGES } from '../../lib/language';
import { GITHUB_URL, MobileMenuButton, NAV } from './Header';
import { LanguageButton } from './LanguageMenu';

export function LanguageMenuDropdown() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : currentLanguage();
  return (
    <DropdownMenu defaultOpen>
      <Tooltip content={t('language.label')}>
        <DropdownMenuTrigger asChild>
          <LanguageButton />
        </DropdownMenuTrigger>
      </Tooltip>
      <DropdownMenuContent>
        <DropdownMenuLabel>{t('language.label')}</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={lang} onValueChange={(value) => isLanguage(value) && setLanguage(value)}>
          {LANGUAGES.map((code) => (
            <DropdownMenuRadioItem key={code} value={code} lang={code}>
              {t(`language.${code}`)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export function MobileMenuDrawer() {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(true);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <MobileMenuButton />
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
