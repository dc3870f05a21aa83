import { KeyRound, LogOut, PanelLeft, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { NavLink, usePathname } from '../../lib/navigation';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { Dialog, DialogTrigger, DrawerContent } from '../../components/ui/dialog';
import { signOut } from '../../features/auth/authApi';
import { adminPagePath, canSeeAdminPage, type AdminPage } from '../../lib/access';
import { cn } from '../../lib/cn';
import { useSession } from '../../lib/useSession';
import { ADMIN_PAGE_LABELS } from '../routes';
import { ADMIN_NAV } from './adminNav';

function usePanelTitle() {
  const { t } = useTranslation();
  const session = useSession();
  return session.type === 'apikey' ? t('admin.userPanelTitle') : t('admin.panelTitle');
}

function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const visible = ADMIN_NAV.filter((item) => canSeeAdminPage(item.page, session));
  const main = visible.filter((item) => item.group === 'main');
  const settings = visible.filter((item) => item.group === 'settings');
  const panelTitle = usePanelTitle();

  const link = (page: AdminPage, Icon: (typeof ADMIN_NAV)[number]['icon']) => (
    <li key={page}>
      <NavLink
        to={adminPagePath(page)}
        end
        onClick={onNavigate}
        className={({ isActive }) =>
          cn(
            'flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors',
            isActive
              ? 'bg-primary-soft text-primary-soft-foreground'
              : 'text-muted-foreground hover:bg-surface-hover hover:text-foreground',
          )
        }
      >
        <Icon className="size-[18px] shrink-0" aria-hidden="true" />
        <span className="truncate">{t(ADMIN_PAGE_LABELS[page])}</span>
      </NavLink>
    </li>
  );

  // One sign-out for every session: an admin's token is revoked on the server, a key is
  // forgotten on this device (the key itself stays valid; an admin revokes it under Key management).
  async function handleLogout() {
    const keySession = session.type === 'apikey';
    setBusy(true);
    await signOut();
    setBusy(false);
    onNavigate?.();
    toast.success(t(keySession ? 'admin.authCleared' : 'admin.loggedOut'));
  }

  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center gap-3 px-3 pb-4 pt-1 pe-12 lg:pe-3">
        <div className="grid size-9 shrink-0 place-items-center rounded-lg bg-primary-soft text-primary-soft-foreground">
          {session.type === 'apikey' ? <KeyRound className="size-[18px]" /> : <ShieldCheck className="size-[18px]" />}
        </div>
        <div className="min-w-0">
          <h2 className="truncate text-[15px] font-semibold" data-testid="panel-title">
            {panelTitle}
          </h2>
          <p className="truncate text-xs text-muted-foreground">
            {session.type === 'apikey'
              ? t('admin.signedInWithKey', { name: session.keyInfo?.name ?? '' })
              : t('admin.signedInAsAdmin')}
          </p>
        </div>
      </div>
      <nav aria-label={t('admin.navLabel')} className="flex-1">
        <ul className="flex flex-col gap-0.5">{main.map((item) => link(item.page, item.icon))}</ul>
        {settings.length > 0 && (
          <>
            <p className="px-3 pb-1.5 pt-5 text-xs font-medium uppercase tracking-wide text-muted-foreground">
              {t('admin.settings')}
            </p>
            <ul className="flex flex-col gap-0.5">{settings.map((item) => link(item.page, item.icon))}</ul>
          </>
        )}
      </nav>
      <div className="mt-4 flex flex-col gap-0.5 border-t border-border pt-3">
        <Button
          variant="ghost"
          className="h-10 justify-start gap-3 px-3 text-muted-foreground hover:text-foreground"
          loading={busy}
          title={session.type === 'apikey' ? t('admin.logoutAuthHelp') : undefined}
          onClick={() => void handleLogout()}
        >
          {!busy && <LogOut className="size-[18px]" aria-hidden="true" />}
          {t('admin.logout')}
        </Button>
      </div>
    </div>
  );
}

export function AdminSidebar() {
  return (
    <aside className="sticky top-14 hidden h-[calc(100dvh-3.5rem)] w-64 shrink-0 overflow-y-auto border-e border-border px-3 py-5 lg:block">
      <SidebarNav />
    </aside>
  );
}

/** Below lg the sidebar lives in a drawer opened from a slim bar. */
export function AdminMobileBar() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const panelTitle = usePanelTitle();
  const current = ADMIN_NAV.find((item) => adminPagePath(item.page) === pathname.replace(/\/+$/, ''));
  return (
    <div className="sticky top-14 z-20 flex h-12 items-center gap-2 border-b border-border bg-background/90 px-2 backdrop-blur-md sm:px-4 lg:hidden">
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogTrigger asChild>
          <Button
            variant="ghost"
            size="md"
            className="gap-2 px-2.5"
            aria-label={`${panelTitle}: ${t('admin.openNav')}`}
          >
            <PanelLeft className="size-[18px]" aria-hidden="true" />
            <span className="font-semibold">{panelTitle}</span>
          </Button>
        </DialogTrigger>
        <DrawerContent title={panelTitle} side="start" hideTitle>
          <SidebarNav onNavigate={() => setOpen(false)} />
        </DrawerContent>
      </Dialog>
      {current && (
        <>
          <span aria-hidden="true" className="text-muted-foreground">
            /
          </span>
          <span className="truncate text-sm text-muted-foreground">{t(ADMIN_PAGE_LABELS[current.page])}</span>
        </>
      )}
    </div>
  );
}
