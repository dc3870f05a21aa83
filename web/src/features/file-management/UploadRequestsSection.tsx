import type { CreateUploadRequestInput, ListPage, UploadRequestView } from '@clipnest/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, Copy, ExternalLink, Inbox, Lock, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { EmptyState } from '../../components/ui/empty-state';
import { Field } from '../../components/ui/field';
import { Input, Textarea } from '../../components/ui/input';
import { LoadError } from '../../components/ui/load-error';
import { Skeleton } from '../../components/ui/skeleton';
import { api, errorMessage } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format';
import { toast } from '../../lib/toast';
import { useTranslation } from '../../lib/useTranslation';

export const UPLOAD_REQUESTS_KEY = ['upload-requests'] as const;
const MB = 1024 * 1024;

function absolute(url: string): string {
  return /^https?:\/\//i.test(url) ? url : `${window.location.origin}${url}`;
}

const TONES = { open: 'success', full: 'warning', expired: 'neutral', revoked: 'danger' } as const;

function CreateDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [form, setForm] = useState({
    target_path: '',
    note: '',
    max_files: '0',
    max_mb: '0',
    max_file_mb: '0',
    expires_in: '168',
    password: '',
  });
  const create = useMutation({
    mutationFn: (body: CreateUploadRequestInput) => api.post<UploadRequestView>('/upload-requests', body),
    onSuccess: async (view) => {
      await client.invalidateQueries({ queryKey: UPLOAD_REQUESTS_KEY });
      if (await copyText(absolute(view.url))) toast.success(t('files.manage.requestCreated'));
      onOpenChange(false);
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
  const num = (v: string) => Math.max(0, Math.floor(Number(v) || 0));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      ...(form.target_path.trim() ? { target_path: form.target_path.trim() } : {}),
      ...(form.note.trim() ? { note: form.note.trim() } : {}),
      max_files: num(form.max_files),
      max_bytes: num(form.max_mb) * MB,
      max_file_bytes: num(form.max_file_mb) * MB,
      expires_in: num(form.expires_in),
      ...(form.password ? { password: form.password } : {}),
    });
  };
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: e.target.value }));
  const numberField = (name: 'max_files' | 'max_mb' | 'max_file_mb' | 'expires_in', label: string) => (
    <Field id={`request-${name}`} label={label}>
      <Input id={`request-${name}`} type="number" min={0} inputMode="numeric" value={form[name]} onChange={set(name)} />
    </Field>
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t('files.manage.newUploadRequest')}
        footer={
          <>
            <Button variant="ghost" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" form="upload-request-form" loading={create.isPending}>
              {t('common.create')}
            </Button>
          </>
        }
      >
        <form id="upload-request-form" className="grid gap-4 sm:grid-cols-2" onSubmit={submit}>
          <Field id="request-target" label={t('files.manage.requestTarget')} className="sm:col-span-2">
            <Input
              id="request-target"
              value={form.target_path}
              onChange={set('target_path')}
              placeholder="/local/inbox"
            />
          </Field>
          <Field id="request-note" label={t('files.manage.requestNote')} className="sm:col-span-2">
            <Textarea id="request-note" rows={3} value={form.note} onChange={set('note')} maxLength={2000} />
          </Field>
          {numberField('max_files', t('files.manage.requestMaxFiles'))}
          {numberField('max_mb', t('files.manage.requestMaxBytes'))}
          {numberField('max_file_mb', t('files.manage.requestMaxFileBytes'))}
          {numberField('expires_in', t('files.manage.requestExpiresIn'))}
          <Field id="request-password" label={t('files.manage.requestPassword')} className="sm:col-span-2">
            <Input
              id="request-password"
              type="password"
              autoComplete="new-password"
              value={form.password}
              onChange={set('password')}
            />
          </Field>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The upload requests the caller manages (the admin: everyone's): link, what arrived, revoke, create. */
export function UploadRequestsSection() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<UploadRequestView | null>(null);
  const requests = useQuery({
    queryKey: UPLOAD_REQUESTS_KEY,
    queryFn: ({ signal }) =>
      api.get<ListPage<UploadRequestView>>('/upload-requests', { signal, query: { limit: 200 } }),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api.delete(`/upload-requests/${encodeURIComponent(id)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: UPLOAD_REQUESTS_KEY }),
  });
  const copy = async (r: UploadRequestView) => {
    if (await copyText(absolute(r.url))) toast.success(t('common.copied'));
    else toast.error(t('common.copyFailed'));
  };

  return (
    <section className="flex flex-col gap-3" aria-labelledby="upload-requests-title" data-testid="upload-requests">
      <div className="flex items-center justify-between gap-2">
        <h2 id="upload-requests-title" className="text-lg font-semibold">
          {t('files.manage.uploadRequests')}
        </h2>
        <Button size="sm" onClick={() => setCreating(true)}>
          <Plus className="size-4" aria-hidden="true" />
          {t('files.manage.newUploadRequest')}
        </Button>
      </div>
      {requests.isPending ? (
        <Skeleton className="h-16 w-full rounded-lg" />
      ) : requests.isError ? (
        <LoadError
          title={t('files.manage.loadFailed')}
          message={errorMessage(requests.error)}
          retryLabel={t('common.retry')}
          onRetry={() => void requests.refetch()}
        />
      ) : requests.data.items.length === 0 ? (
        <EmptyState icon={Inbox} title={t('files.manage.noUploadRequests')} />
      ) : (
        <ul className="divide-y divide-border rounded-lg border border-border bg-surface">
          {requests.data.items.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
              <Inbox className="size-5 shrink-0 text-primary" aria-hidden="true" />
              <div className="min-w-0 flex-1">
                <p className="flex items-center gap-1.5 font-medium">
                  <span className="truncate">{r.note || r.slug}</span>
                  {r.has_password && (
                    <Lock
                      className="size-3.5 shrink-0 text-muted-foreground"
                      aria-label={t('files.upload.options.password')}
                    />
                  )}
                  <Badge tone={TONES[r.state]}>{t(`files.manage.state.${r.state}`)}</Badge>
                </p>
                <p className="truncate text-xs text-muted-foreground">
                  <span className="font-mono">{r.target_path || t('files.manage.asFileShares')}</span> ·{' '}
                  <span className="font-mono">{r.slug}</span> ·{' '}
                  {t('files.manage.received', {
                    count: r.files_received,
                    size: formatBytes(r.bytes_received, i18n.language),
                  })}{' '}
                  ·{' '}
                  {r.expires_at ? (
                    <span title={formatDateTime(r.expires_at, i18n.language)}>
                      {formatRelative(r.expires_at, i18n.language)}
                    </span>
                  ) : (
                    t('files.expiry.never')
                  )}
                </p>
              </div>
              <div className="flex gap-1">
                <Button variant="ghost" size="sm" asChild>
                  <a
                    href={r.url}
                    target="_blank"
                    rel="noreferrer"
                    aria-label={t('files.manage.openShare', { name: r.slug })}
                  >
                    <ExternalLink className="size-4" aria-hidden="true" />
                  </a>
                </Button>
                <Button variant="ghost" size="sm" onClick={() => void copy(r)} aria-label={t('common.copy')}>
                  <Copy className="size-4" aria-hidden="true" />
                </Button>
                {r.state !== 'revoked' && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => setRevoking(r)}
                    aria-label={t('files.manage.revoke')}
                  >
                    <Ban className="size-4" aria-hidden="true" />
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <CreateDialog open={creating} onOpenChange={setCreating} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={t('files.manage.revokeRequest')}
        description={t('files.manage.revokeRequestBody')}
        confirmLabel={t('files.manage.revoke')}
        busy={revoke.isPending}
        onConfirm={() => {
          if (!revoking) return;
          revoke.mutate(revoking.id, {
            onSuccess: () => setRevoking(null),
            onError: (error) => toast.error(errorMessage(error)),
          });
        }}
      />
    </section>
  );
}
