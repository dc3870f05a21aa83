import { CircleCheck, CircleX, Clock, Globe, Link2Off, MonitorSmartphone, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'wouter';
import { Logo } from '../../components/Logo';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClasses } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { RelativeTime } from '../../components/ui/relative-time';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage, isApiError } from '../../lib/api';
import { logout } from '../../lib/auth';
import { useSession } from '../../lib/useSession';
import { useTranslation } from '../../lib/useTranslation';
import { useSiteConfig } from '../../lib/siteConfig';
import { useAnswerLoginFlow, useLoginFlow } from './connectApi';
import LoginPage from './LoginPage';

/** The frame of every state of the page: one narrow card, centred, as the sign-in page. */
function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-[calc(100dvh-3.5rem)] items-start justify-center px-4 py-10 sm:items-center sm:py-16">
      <div className="w-full max-w-[440px]" data-testid="connect-page">
        {children}
      </div>
    </div>
  );
}

function Detail({ icon: Icon, label, children }: { icon: typeof Globe; label: string; children: ReactNode }) {
  return (
    <div className="flex gap-3 py-2.5">
      <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <div className="min-w-0">
        <dt className="text-xs text-muted-foreground">{label}</dt>
        <dd className="mt-0.5 text-sm break-words">{children}</dd>
      </div>
    </div>
  );
}

function FlowAnswer({ token }: { token: string }) {
  const { t } = useTranslation();
  const site = useSiteConfig();
  const flow = useLoginFlow(token, true);
  const answer = useAnswerLoginFlow(token);

  if (answer.isSuccess) {
    const approved = answer.variables === 'approve';
    return (
      <EmptyState
        icon={approved ? CircleCheck : CircleX}
        title={approved ? t('connect.approvedTitle') : t('connect.deniedTitle')}
        description={
          <span data-testid="connect-result">
            {approved ? t('connect.approvedBody', { name: answer.data?.name ?? '' }) : t('connect.deniedBody')}
          </span>
        }
        action={
          approved ? (
            <Link href="/admin/key-management" className={buttonClasses('secondary', 'sm')}>
              {t('connect.manageKeys')}
            </Link>
          ) : undefined
        }
      />
    );
  }
  if (flow.isPending) {
    return (
      <div className="rounded-xl border border-border bg-surface p-5 shadow-sm sm:p-6" aria-busy="true">
        <span className="sr-only" role="status">
          {t('connect.loading')}
        </span>
        <Skeleton className="h-6 w-48" />
        <Skeleton className="mt-3 h-4 w-full" />
        <Skeleton className="mt-6 h-24 w-full" />
        <Skeleton className="mt-6 h-10 w-full" />
      </div>
    );
  }
  if (flow.isError) {
    const gone = isApiError(flow.error) && flow.error.status === 404;
    return (
      <EmptyState
        icon={Link2Off}
        title={gone ? t('connect.goneTitle') : t('connect.loadFailed')}
        description={gone ? t('connect.goneBody') : errorMessage(flow.error)}
      />
    );
  }
  const view = flow.data;
  const answerError = answer.isError ? answer.error : null;
  return (
    <div className="rounded-xl border border-border bg-surface p-5 shadow-sm sm:p-6">
      <h1 className="text-lg font-semibold tracking-tight">{t('connect.title')}</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        {t('connect.asks', { app: view.client_name, site: site.site_title })}
      </p>
      <dl className="mt-4 divide-y divide-border rounded-lg border border-border px-3.5">
        <Detail icon={MonitorSmartphone} label={t('connect.app')}>
          <span className="font-medium" data-testid="connect-client">
            {view.client_name}
          </span>
          {view.user_agent && (
            <span className="mt-1 block font-mono text-xs break-all text-muted-foreground">{view.user_agent}</span>
          )}
        </Detail>
        <Detail icon={Globe} label={t('connect.address')}>
          <span className="font-mono">{view.address}</span>
        </Detail>
        <Detail icon={Clock} label={t('connect.expires')}>
          <RelativeTime iso={view.expires_at} />
        </Detail>
      </dl>
      <Alert tone="info" title={t('connect.scopeTitle')} className="mt-4">
        {t('connect.scopeBody')}
      </Alert>
      {answerError && (
        <Alert tone="danger" className="mt-4">
          {isApiError(answerError) && answerError.status === 404 ? t('connect.goneBody') : errorMessage(answerError)}
        </Alert>
      )}
      <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button
          variant="secondary"
          onClick={() => answer.mutate('deny')}
          disabled={answer.isPending}
          loading={answer.isPending && answer.variables === 'deny'}
        >
          {t('connect.deny')}
        </Button>
        <Button
          onClick={() => answer.mutate('approve')}
          disabled={answer.isPending}
          loading={answer.isPending && answer.variables === 'approve'}
        >
          <ShieldCheck aria-hidden="true" />
          {t('connect.approve')}
        </Button>
      </div>
    </div>
  );
}

/**
 * /connect/:token: a Nextcloud or ownCloud app (Login Flow v2) asks to sign in. Signed out: the sign-in form
 * (second factor included); as the admin: which app asks, and Approve / Deny.
 */
export default function ConnectPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams<{ token: string }>();
  const session = useSession();

  if (session.type === 'none') {
    return (
      <>
        <div className="mx-auto w-full max-w-[400px] px-4 pt-6">
          <Alert tone="info" title={t('connect.signInTitle')}>
            {t('connect.signInBody')}
          </Alert>
        </div>
        <LoginPage />
      </>
    );
  }
  return (
    <Frame>
      <div className="mb-6 flex justify-center">
        <Logo className="size-11" />
      </div>
      {session.type === 'admin' ? (
        <FlowAnswer token={token} />
      ) : (
        <EmptyState
          icon={ShieldCheck}
          title={t('connect.adminOnlyTitle')}
          description={t('connect.adminOnlyBody')}
          action={
            <Button variant="secondary" size="sm" onClick={() => logout()}>
              {t('connect.signOut')}
            </Button>
          }
        />
      )}
    </Frame>
  );
}
