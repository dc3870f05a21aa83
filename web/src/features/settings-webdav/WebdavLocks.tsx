import type { WebdavLockView } from '@clipnest/contract';
import { Lock, LockOpen } from 'lucide-react';
import { useState } from 'react';
import { SettingsSection } from '../../components/settings';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { RelativeTime } from '../../components/ui/relative-time';
import { Table, TBody, TD, TH, THead, TR } from '../../components/ui/table';
import { toast } from '../../components/ui/toaster';
import { errorMessage } from '../../lib/api';
import { useTranslation } from '../../lib/useTranslation';
import { ListStates } from './ListStates';
import { useBreakLock, useWebdavLocks } from './api';

/** The lock's `<D:owner>` as text (clients send a name, a URL or a small XML element). */
function ownerText(owner: string): string {
  return owner
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function Holder({ lock }: { lock: WebdavLockView }) {
  const { t } = useTranslation();
  if (lock.holder.type === 'admin') return <span>{t('adminPanel.webdav.locks.holderAdmin')}</span>;
  return (
    <span className="break-all">
      {lock.holder.name ?? t('adminPanel.webdav.locks.holderGoneKey', { id: lock.holder.id })}
    </span>
  );
}

/** Locks held over WebDAV, each with a "Break" button (the escape hatch when a client forgot one). */
export function WebdavLocks() {
  const { t } = useTranslation();
  const locks = useWebdavLocks();
  const breakLock = useBreakLock();
  const [pending, setPending] = useState<WebdavLockView>();

  const confirm = () => {
    if (!pending) return;
    breakLock.mutate(pending.id, {
      onSuccess: () => toast.success(t('adminPanel.webdav.locks.broken', { path: pending.path })),
      onError: (error) => toast.error(errorMessage(error)),
      onSettled: () => setPending(undefined),
    });
  };

  return (
    <SettingsSection
      icon={Lock}
      title={t('adminPanel.webdav.locks.title')}
      description={t('adminPanel.webdav.locks.body')}
    >
      <div data-testid="webdav-locks">
        <ListStates
          query={locks}
          loadFailed={t('adminPanel.webdav.locks.loadFailed')}
          empty={{
            icon: LockOpen,
            title: t('adminPanel.webdav.locks.emptyTitle'),
            body: t('adminPanel.webdav.locks.emptyBody'),
          }}
        >
          {(items) => (
            <Table>
              <THead>
                <TR>
                  <TH>{t('adminPanel.webdav.locks.path')}</TH>
                  <TH className="hidden sm:table-cell">{t('adminPanel.webdav.locks.holder')}</TH>
                  <TH className="hidden sm:table-cell">{t('adminPanel.webdav.locks.expires')}</TH>
                  <TH>
                    <span className="sr-only">{t('adminPanel.webdav.locks.actions')}</span>
                  </TH>
                </TR>
              </THead>
              <TBody>
                {items.map((lock) => (
                  <TR key={lock.id} data-lock-path={lock.path}>
                    <TD className="min-w-0">
                      <div className="flex flex-wrap items-center gap-1.5">
                        <code className="break-all font-mono text-xs">{lock.path}</code>
                        {lock.depth === 'infinity' && <Badge>{t('adminPanel.webdav.locks.withContent')}</Badge>}
                        {lock.scope === 'shared' && <Badge tone="neutral">{t('adminPanel.webdav.locks.shared')}</Badge>}
                      </div>
                      {ownerText(lock.owner) && (
                        <p className="mt-1 break-all text-xs text-muted-foreground">
                          {t('adminPanel.webdav.locks.owner', { owner: ownerText(lock.owner) })}
                        </p>
                      )}
                      <p className="mt-1 text-xs text-muted-foreground sm:hidden">
                        <Holder lock={lock} /> · {t('adminPanel.webdav.locks.expires')}{' '}
                        <RelativeTime iso={lock.expires_at} />
                      </p>
                    </TD>
                    <TD className="hidden text-sm sm:table-cell">
                      <Holder lock={lock} />
                    </TD>
                    <TD className="hidden whitespace-nowrap text-sm sm:table-cell">
                      <RelativeTime iso={lock.expires_at} />
                    </TD>
                    <TD className="text-end">
                      <Button type="button" variant="secondary" size="sm" onClick={() => setPending(lock)}>
                        {t('adminPanel.webdav.locks.break')}
                      </Button>
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </ListStates>
      </div>
      <ConfirmDialog
        open={pending !== undefined}
        onOpenChange={(open) => !open && setPending(undefined)}
        title={t('adminPanel.webdav.locks.confirmTitle', { path: pending?.path ?? '' })}
        description={t('adminPanel.webdav.locks.confirmBody')}
        confirmLabel={t('adminPanel.webdav.locks.break')}
        onConfirm={confirm}
        busy={breakLock.isPending}
      />
    </SettingsSection>
  );
}
