import type { AdminSessionView } from '@clipnest/contract';
import { LogOut, Monitor, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { LoadError } from '../../components/ui/load-error';
import { RelativeTime } from '../../components/ui/relative-time';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage } from '../../lib/api';
import { toast } from '../../lib/toast';
import { useTranslation } from '../../lib/useTranslation';
import { useEndOtherSessions, useEndSession, useSessions } from './api';
import { Section } from './Section';

const PHONE_SYSTEMS = new Set(['iOS', 'iPadOS', 'Android']);

function SessionRow({ session, onEnd }: { session: AdminSessionView; onEnd: () => void }) {
  const { t } = useTranslation();
  const device =
    session.browser && session.os
      ? t('adminPanel.account.sessions.device', { browser: session.browser, os: session.os })
      : (session.browser ?? session.os ?? t('adminPanel.account.sessions.unknownDevice'));
  const Icon = session.os && PHONE_SYSTEMS.has(session.os) ? Smartphone : Monitor;
  return (
    <li className="flex items-start gap-3 py-3" data-testid="session-row">
      <Icon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="truncate text-sm font-medium" title={session.user_agent ?? undefined}>
            {device}
          </p>
          {session.current && <Badge tone="primary">{t('adminPanel.account.sessions.current')}</Badge>}
          {session.auth_method && session.auth_method !== 'password' && (
            <Badge>{t(`adminPanel.account.sessions.methods.${session.auth_method}`)}</Badge>
          )}
        </div>
        <p className="mt-0.5 text-xs text-muted-foreground">
          <span className="font-mono">{session.address ?? '—'}</span>
          {' · '}
          {t('adminPanel.account.sessions.signedIn')} <RelativeTime iso={session.created_at} />
          {session.last_used_at && (
            <>
              {' · '}
              {t('adminPanel.account.sessions.lastUsed')} <RelativeTime iso={session.last_used_at} />
            </>
          )}
        </p>
      </div>
      {!session.current && (
        <Button variant="destructive-ghost" size="sm" onClick={onEnd}>
          {t('adminPanel.account.sessions.end')}
        </Button>
      )}
    </li>
  );
}

/** The admin's active sign-ins: device, address, when; end one or all the others. */
export function SessionsSection() {
  const { t } = useTranslation();
  const sessions = useSessions();
  const end = useEndSession();
  const endOthers = useEndOtherSessions();
  const [ending, setEnding] = useState<AdminSessionView | 'others' | null>(null);
  const items = sessions.data?.items ?? [];
  const others = items.filter((s) => !s.current).length;

  let body;
  if (sessions.isPending) {
    body = (
      <div className="flex flex-col gap-3">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  } else if (sessions.isError) {
    body = (
      <LoadError
        title={t('adminPanel.account.sessions.loadFailed')}
        message={errorMessage(sessions.error)}
        retryLabel={t('common.retry')}
        onRetry={() => void sessions.refetch()}
      />
    );
  } else {
    body = (
      <ul className="-my-3 divide-y divide-border">
        {items.map((session) => (
          <SessionRow key={session.id} session={session} onEnd={() => setEnding(session)} />
        ))}
      </ul>
    );
  }

  return (
    <Section
      id="sessions"
      title={t('adminPanel.account.sessions.title')}
      description={t('adminPanel.account.sessions.body')}
      action={
        others > 0 && (
          <Button variant="secondary" size="sm" onClick={() => setEnding('others')}>
            <LogOut className="size-4" aria-hidden="true" />
            {t('adminPanel.account.sessions.endOthers')}
          </Button>
        )
      }
    >
      {body}
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => !open && setEnding(null)}
        title={
          ending === 'others'
            ? t('adminPanel.account.sessions.endOthersTitle', { count: others })
            : t('adminPanel.account.sessions.endTitle')
        }
        description={t('adminPanel.account.sessions.endBody')}
        confirmLabel={t('adminPanel.account.sessions.end')}
        busy={end.isPending || endOthers.isPending}
        onConfirm={() => {
          const target = ending;
          const done = {
            onSuccess: () => {
              setEnding(null);
              toast.success(t('adminPanel.account.sessions.ended'));
            },
            onError: (error: Error) => toast.error(errorMessage(error)),
          };
          if (target === 'others') endOthers.mutate(undefined, done);
          else if (target) end.mutate(target.id, done);
        }}
      />
    </Section>
  );
}
