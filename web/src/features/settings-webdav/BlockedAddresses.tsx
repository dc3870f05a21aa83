import type { BlockedAddressView } from '@clipnest/contract';
import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { SettingsSection } from '../../components/settings';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { RelativeTime } from '../../components/ui/relative-time';
import { Table, TBody, TD, TH, THead, TR } from '../../components/ui/table';
import { toast } from '../../components/ui/toaster';
import { errorMessage } from '../../lib/api';
import { useTranslation } from '../../lib/useTranslation';
import { ListStates } from './ListStates';
import { useBlockedAddresses, useUnblockAddress } from './api';

/** Addresses the limiter refuses now (the right password too), with the door, since and until; the admin clears one. */
export function BlockedAddresses() {
  const { t } = useTranslation();
  const blocked = useBlockedAddresses();
  const unblock = useUnblockAddress();

  const clear = (row: BlockedAddressView) =>
    unblock.mutate(row.id, {
      onSuccess: () => toast.success(t('adminPanel.webdav.blocked.cleared', { address: row.address })),
      onError: (error) => toast.error(errorMessage(error)),
    });

  return (
    <SettingsSection
      icon={ShieldAlert}
      title={t('adminPanel.webdav.blocked.title')}
      description={t('adminPanel.webdav.blocked.body')}
    >
      <div data-testid="webdav-blocked">
        <ListStates
          query={blocked}
          loadFailed={t('adminPanel.webdav.blocked.loadFailed')}
          empty={{
            icon: ShieldCheck,
            title: t('adminPanel.webdav.blocked.emptyTitle'),
            body: t('adminPanel.webdav.blocked.emptyBody'),
          }}
        >
          {(items) => (
            <Table>
              <THead>
                <TR>
                  <TH>{t('adminPanel.webdav.blocked.address')}</TH>
                  <TH className="hidden sm:table-cell">{t('adminPanel.webdav.blocked.since')}</TH>
                  <TH className="hidden sm:table-cell">{t('adminPanel.webdav.blocked.until')}</TH>
                  <TH>
                    <span className="sr-only">{t('adminPanel.webdav.blocked.actions')}</span>
                  </TH>
                </TR>
              </THead>
              <TBody>
                {items.map((row) => (
                  <TR key={row.id} data-address={row.address}>
                    <TD>
                      <div className="flex flex-wrap items-center gap-1.5">
                        <code className="break-all font-mono text-xs">{row.address}</code>
                        <Badge tone="warning">{t(`adminPanel.webdav.blocked.doors.${row.door}`)}</Badge>
                      </div>
                      <p className="mt-1 text-xs text-muted-foreground sm:hidden">
                        {t('adminPanel.webdav.blocked.until')} <RelativeTime iso={row.until} />
                      </p>
                    </TD>
                    <TD className="hidden whitespace-nowrap text-sm sm:table-cell">
                      {row.since ? <RelativeTime iso={row.since} /> : '—'}
                    </TD>
                    <TD className="hidden whitespace-nowrap text-sm sm:table-cell">
                      <RelativeTime iso={row.until} />
                    </TD>
                    <TD className="text-end">
                      <Button
                        type="button"
                        variant="secondary"
                        size="sm"
                        loading={unblock.isPending && unblock.variables === row.id}
                        onClick={() => clear(row)}
                      >
                        {t('adminPanel.webdav.blocked.clear')}
                      </Button>
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </ListStates>
      </div>
    </SettingsSection>
  );
}
