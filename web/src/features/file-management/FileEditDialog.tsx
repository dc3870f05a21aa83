import {
  SHARE_EXPIRY_PRESET_HOURS,
  SLUG_MAX,
  SLUG_PATTERN,
  type FileView,
  type UpdateFileInput,
} from '@clipnest/contract';
import { useIsMutating } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Field, fieldAria } from '../../components/ui/field';
import { Input, Textarea } from '../../components/ui/input';
import { Switch } from '../../components/ui/switch';
import { errorMessage, isApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { UPDATE_FILE_KEY, useUpdateFile } from './api';

const EXPIRY_KEYS: Record<number, 'hour' | 'day' | 'week' | 'month' | 'never'> = {
  1: 'hour',
  24: 'day',
  168: 'week',
  720: 'month',
  0: 'never',
};

interface EditState {
  filename: string;
  slug: string;
  remark: string;
  password: string;
  clearPassword: boolean;
  expiry: string;
  max_views: string;
  use_proxy: boolean;
}

function EditForm({ file, onDone }: { file: FileView; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateFile();
  const [s, setS] = useState<EditState>({
    filename: file.filename,
    slug: file.slug,
    remark: file.remark,
    password: '',
    clearPassword: false,
    expiry: 'keep',
    max_views: String(file.max_views),
    use_proxy: file.use_proxy,
  });
  const [submitted, setSubmitted] = useState(false);
  const set = <K extends keyof EditState>(k: K, v: EditState[K]) => setS((x) => ({ ...x, [k]: v }));

  const errors: Partial<Record<'filename' | 'slug' | 'max_views', string>> = {};
  if (submitted) {
    if (!s.filename.trim()) errors.filename = t('files.manage.edit.filenameRequired');
    if (!s.slug.trim() || !SLUG_PATTERN.test(s.slug.trim()) || s.slug.trim().length > SLUG_MAX)
      errors.slug = t('files.manage.edit.slugInvalid');
    if (!/^\d+$/.test(s.max_views.trim())) errors.max_views = t('files.upload.options.maxViewsInvalid');
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    const slug = s.slug.trim();
    if (!s.filename.trim() || !slug || !SLUG_PATTERN.test(slug) || !/^\d+$/.test(s.max_views.trim())) return;
    const input: UpdateFileInput = {};
    if (s.filename.trim() !== file.filename) input.filename = s.filename.trim();
    if (slug !== file.slug) input.slug = slug;
    if (s.remark !== file.remark) input.remark = s.remark;
    if (s.clearPassword) input.password = null;
    else if (s.password) input.password = s.password;
    if (s.expiry !== 'keep') input.expires_in = Number(s.expiry);
    if (Number(s.max_views) !== file.max_views) input.max_views = Number(s.max_views);
    if (s.use_proxy !== file.use_proxy) input.use_proxy = s.use_proxy;
    if (Object.keys(input).length === 0) {
      onDone();
      return;
    }
    try {
      await update.mutateAsync({ id: file.id, input });
      toast.success(t('files.manage.edit.saved', { name: s.filename.trim() }));
      onDone();
    } catch (error) {
      if (!(isApiError(error) && error.loggedOut)) toast.error(errorMessage(error));
    }
  }

  return (
    <form id="file-edit-form" onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
      <Field id="fe-filename" label={t('files.manage.columns.file')} error={errors.filename}>
        <Input
          {...fieldAria('fe-filename', errors.filename, false)}
          value={s.filename}
          maxLength={255}
          onChange={(e) => set('filename', e.target.value)}
        />
      </Field>
      <Field
        id="fe-slug"
        label={t('files.upload.options.slug')}
        error={errors.slug}
        help={t('files.manage.edit.slugHelp')}
      >
        <Input
          {...fieldAria('fe-slug', errors.slug, true)}
          value={s.slug}
          maxLength={SLUG_MAX}
          spellCheck={false}
          onChange={(e) => set('slug', e.target.value)}
        />
      </Field>
      <Field id="fe-remark" label={t('files.upload.options.remark')} optional={t('common.optional')}>
        <Textarea
          id="fe-remark"
          value={s.remark}
          maxLength={1000}
          rows={2}
          onChange={(e) => set('remark', e.target.value)}
        />
      </Field>
      <Field
        id="fe-password"
        label={t('files.upload.options.password')}
        help={file.has_password ? t('files.manage.edit.passwordKeep') : t('files.manage.edit.passwordNone')}
      >
        <Input
          {...fieldAria('fe-password', undefined, true)}
          type="password"
          autoComplete="new-password"
          value={s.password}
          disabled={s.clearPassword}
          onChange={(e) => set('password', e.target.value)}
        />
      </Field>
      {file.has_password && (
        <label className="-mt-2 flex min-h-10 cursor-pointer items-center gap-3 text-sm">
          <Checkbox checked={s.clearPassword} onCheckedChange={(v) => set('clearPassword', v === true)} />
          {t('files.manage.edit.clearPassword')}
        </label>
      )}
      <Field
        id="fe-expiry"
        label={t('files.upload.options.expiry')}
        help={
          file.expires_at
            ? t('files.manage.edit.expiresAt', { when: formatDateTime(file.expires_at, i18n.language) })
            : t('files.manage.edit.neverExpires')
        }
      >
        <ChoiceChips
          id="fe-expiry"
          label={t('files.upload.options.expiry')}
          value={s.expiry}
          onChange={(v) => set('expiry', v)}
          options={[
            { value: 'keep', label: t('files.manage.edit.keep') },
            ...SHARE_EXPIRY_PRESET_HOURS.map((h) => ({
              value: String(h),
              label: t(`files.expiry.${EXPIRY_KEYS[h]!}`),
            })),
          ]}
        />
      </Field>
      <Field
        id="fe-max-views"
        label={t('files.upload.options.maxViews')}
        error={errors.max_views}
        help={t('files.manage.edit.viewsSoFar', { count: file.views })}
      >
        <Input
          {...fieldAria('fe-max-views', errors.max_views, true)}
          inputMode="numeric"
          value={s.max_views}
          onChange={(e) => set('max_views', e.target.value)}
        />
      </Field>
      {file.provider_type !== 'local' && (
        <label className="flex min-h-10 cursor-pointer items-center justify-between gap-4 rounded-lg border border-border px-3 py-2">
          <span>
            <span className="block text-sm font-medium">{t('files.upload.options.accessProxy')}</span>
            <span className="block text-xs text-muted-foreground">{t('files.upload.options.accessHelp')}</span>
          </span>
          <Switch
            checked={s.use_proxy}
            onCheckedChange={(v) => set('use_proxy', v)}
            aria-label={t('files.upload.options.accessProxy')}
          />
        </label>
      )}
    </form>
  );
}

export function FileEditDialog({ file, onClose }: { file: FileView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const saving = useIsMutating({ mutationKey: UPDATE_FILE_KEY }) > 0;
  return (
    <Dialog open={file !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={t('files.manage.edit.title', { name: file?.filename ?? '' })}
        footer={
          <>
            <Button variant="secondary" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" form="file-edit-form" loading={saving}>
              {t('common.save')}
            </Button>
          </>
        }
      >
        {file && <EditForm key={file.id} file={file} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}
