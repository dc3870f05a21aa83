import type { PasteDetail } from '@clipnest/contract';
import { useId, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Field, fieldAria } from '../../components/ui/field';
import { Input, Textarea } from '../../components/ui/input';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage, isApiError } from '../../lib/api';
import { formatBytes, formatDateTime } from '../../lib/format';
import { PasswordInput } from '../../components/ui/password-input';
import { usePasteDetail, useUpdatePaste } from '../pastes/api';
import {
  EDIT_EXPIRY_CHOICES,
  formFromPaste,
  toUpdateInput,
  validateEditForm,
  type EditExpiryChoice,
  type EditForm,
} from './editForm';

function EditFields({ paste, onDone }: { paste: PasteDetail; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const base = useId();
  const [form, setForm] = useState<EditForm>(() => formFromPaste(paste));
  const [showErrors, setShowErrors] = useState(false);
  const update = useUpdatePaste();
  const errors = showErrors ? validateEditForm(form) : {};
  const set = <K extends keyof EditForm>(key: K, value: EditForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const msg = (key: keyof typeof errors) => {
    const code = errors[key];
    if (!code) return undefined;
    return code === 'contentEmpty' || code === 'contentTooLarge'
      ? t(`paste.errors.${code}`)
      : t(`paste.share.errors.${code as 'slugPattern'}`);
  };
  const ids = {
    content: `${base}-content`,
    remark: `${base}-remark`,
    slug: `${base}-slug`,
    password: `${base}-password`,
    maxViews: `${base}-max-views`,
  };

  async function save() {
    setShowErrors(true);
    if (Object.keys(validateEditForm(form)).length > 0) return;
    const input = toUpdateInput(paste, form);
    if (Object.keys(input).length === 0) {
      onDone();
      return;
    }
    try {
      await update.mutateAsync({ id: paste.id, input });
      toast.success(t('paste.manage.saved', { slug: form.slug.trim() }));
      onDone();
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
  }

  const expiryOptions = EDIT_EXPIRY_CHOICES.map((value) => ({
    value,
    label: value === 'keep' ? t('paste.manage.keepExpiry') : t(`paste.expiry.${value}`),
  }));

  return (
    <form
      id={`${base}-form`}
      className="flex flex-col gap-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <ChoiceChips
        value={form.type}
        onChange={(v) => set('type', v)}
        label={t('paste.home.mode')}
        options={[
          { value: 'markdown', label: t('paste.home.modeMarkdown') },
          { value: 'text', label: t('paste.home.modeText') },
        ]}
      />
      {paste.encrypted ? (
        // The server holds ciphertext only: nothing to show or edit here (the link's key is not known).
        <p className="rounded-lg border border-border bg-surface-muted p-3 text-sm text-muted-foreground">
          {t('paste.manage.encryptedContent', { size: formatBytes(paste.size) })}
        </p>
      ) : (
        <Field id={ids.content} label={t('paste.manage.content')} error={msg('content')}>
          <Textarea
            {...fieldAria(ids.content, msg('content'), false)}
            value={form.content}
            onChange={(event) => set('content', event.target.value)}
            spellCheck={false}
            className="min-h-48 font-mono text-[13px]"
          />
        </Field>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={ids.remark} label={t('paste.share.remark')} optional={t('common.optional')} error={msg('remark')}>
          <Input
            {...fieldAria(ids.remark, msg('remark'), false)}
            value={form.remark}
            onChange={(event) => set('remark', event.target.value)}
          />
        </Field>
        <Field id={ids.slug} label={t('paste.share.slug')} error={msg('slug')}>
          <Input
            {...fieldAria(ids.slug, msg('slug'), false)}
            value={form.slug}
            onChange={(event) => set('slug', event.target.value)}
            autoCapitalize="off"
            spellCheck={false}
            className="font-mono"
          />
        </Field>
        <Field
          id={ids.password}
          label={t('paste.manage.newPassword')}
          optional={t('common.optional')}
          help={paste.has_password ? t('paste.manage.passwordKeepHelp') : t('paste.manage.passwordNoneHelp')}
        >
          <PasswordInput
            id={ids.password}
            value={form.password}
            onChange={(v) => set('password', v)}
            describedBy={`${ids.password}-help`}
          />
        </Field>
        <Field
          id={ids.maxViews}
          label={t('paste.share.maxViews')}
          help={t('paste.share.maxViewsHelp')}
          error={msg('maxViews')}
        >
          <Input
            {...fieldAria(ids.maxViews, msg('maxViews'), true)}
            inputMode="numeric"
            value={form.maxViews}
            onChange={(event) => set('maxViews', event.target.value)}
          />
        </Field>
      </div>
      {paste.has_password && (
        <label className="flex min-h-10 items-center gap-2.5 text-sm">
          <Checkbox checked={form.clearPassword} onCheckedChange={(v) => set('clearPassword', v === true)} />
          {t('paste.manage.clearPassword')}
        </label>
      )}
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium">{t('paste.share.expiry')}</span>
        <p className="text-xs text-muted-foreground">
          {paste.expires_at
            ? t('paste.manage.currentExpiry', { date: formatDateTime(paste.expires_at, i18n.language) })
            : t('paste.manage.currentNever')}
        </p>
        <ChoiceChips<EditExpiryChoice>
          value={form.expiry}
          onChange={(v) => set('expiry', v)}
          options={expiryOptions}
          label={t('paste.share.expiry')}
        />
      </div>
      {paste.max_views > 0 && paste.views > 0 && (
        <label className="flex min-h-10 items-center gap-2.5 text-sm">
          <Checkbox checked={form.resetViews} onCheckedChange={(v) => set('resetViews', v === true)} />
          {t('paste.manage.resetViews', { count: paste.views })}
        </label>
      )}
      <div className="flex flex-col-reverse gap-2 border-t border-border pt-4 sm:flex-row sm:justify-end">
        <Button variant="secondary" type="button" onClick={onDone} disabled={update.isPending}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={update.isPending}>
          {update.isPending ? t('common.saving') : t('paste.manage.saveChanges')}
        </Button>
      </div>
    </form>
  );
}

/** Edit dialog: loads the full paste (content included) without counting a view. */
export function PasteEditDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = usePasteDetail(id);
  const slug = detail.data?.slug ?? '';
  return (
    <Dialog open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={t('paste.manage.editTitle', { slug })}
        className="sm:max-w-2xl"
        onOpenAutoFocus={(event) => event.preventDefault()}
      >
        {detail.isPending ? (
          <div className="space-y-3">
            <Skeleton className="h-9 w-48" />
            <Skeleton className="h-48 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : detail.isError ? (
          <Alert tone="danger" title={t('paste.manage.loadOneFailed')}>
            {errorMessage(detail.error)}
          </Alert>
        ) : (
          <EditFields key={detail.data.id} paste={detail.data} onDone={onClose} />
        )}
      </DialogContent>
    </Dialog>
  );
}
