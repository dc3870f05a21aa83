import type { CreateUploadRequestInput, UploadRequestView } from '@clipnest/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Ban, Inbox, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Field } from '../../components/ui/field';
import { Input, Textarea } from '../../components/ui/input';
import { api, errorMessage } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { formatBytes, formatDateTime, formatRelative } from '../../lib/format';
import { toast } from '../../lib/toast';
import { useTranslation } from '../../lib/useTranslation';
import { LinkListSection, absoluteUrl } from './LinkListSection';

export const UPLOAD_REQUESTS_KEY = ['upload-requests'] as const;
const MB = 1024 * 1024;

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
      if (await copyText(absoluteUrl(view.url))) toast.success(t('files.manage.requestCreated'));
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
  const [creating, setCreating] = useState(false);
  return (
    <>
      <LinkListSection<UploadRequestView>
        id="upload-requests"
        title={t('files.manage.uploadRequests')}
        action={
          <Button size="sm" onClick={() => setCreating(true)}>
            <Plus className="size-4" aria-hidden="true" />
            {t('files.manage.newUploadRequest')}
          </Button>
        }
        queryKey={UPLOAD_REQUESTS_KEY}
        path="/upload-requests"
        emptyIcon={Inbox}
        emptyTitle={t('files.manage.noUploadRequests')}
        row={(r) => ({
          icon: Inbox,
          name: r.note || r.slug,
          openName: r.slug,
          badge: <Badge tone={TONES[r.state]}>{t(`files.manage.state.${r.state}`)}</Badge>,
          details: (
            <>
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
            </>
          ),
        })}
        end={{
          icon: Ban,
          label: t('files.manage.revoke'),
          allowed: (r) => r.state !== 'revoked',
          confirm: () => ({
            title: t('files.manage.revokeRequest'),
            description: t('files.manage.revokeRequestBody'),
            confirmLabel: t('files.manage.revoke'),
          }),
        }}
      />
      <CreateDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
