import { SHARE_EXPIRY_PRESET_HOURS, SLUG_MAX, SLUG_PATTERN, type StorageConfigView } from '@clipnest/contract';
import { ChevronDown, Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { Field, fieldAria } from '../../components/ui/field';
import { IconButton } from '../../components/ui/icon-button';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { SwitchField } from '../../components/ui/switch';
import { cn } from '../../lib/cn';
import type { ShareOptions } from '../../lib/uploader';
import { storageConfigName } from '../../lib/storageConfigName';

export type ProxyChoice = 'default' | 'proxy' | 'direct';

export interface ShareOptionsState {
  s3_config_id: string;
  slug: string;
  path: string;
  remark: string;
  password: string;
  expiry: string;
  max_views: string;
  proxy: ProxyChoice;
  /** End-to-end encrypt in the browser (docs/encryption.md). */
  encrypted?: boolean;
}

export const EMPTY_OPTIONS: ShareOptionsState = {
  s3_config_id: '',
  slug: '',
  path: '',
  remark: '',
  password: '',
  expiry: '0',
  max_views: '',
  proxy: 'default',
};

export type OptionErrors = Partial<Record<'slug' | 'max_views' | 'path', string>>;

// A narrow signature: any `t` whose keys include these fits, with no need to spell the whole key union here.
type T = (
  key: 'files.upload.options.slugInvalid' | 'files.upload.options.maxViewsInvalid' | 'files.upload.options.pathInvalid',
) => string;

export function validateOptions(state: ShareOptionsState, t: T): OptionErrors {
  const errors: OptionErrors = {};
  const slug = state.slug.trim();
  if (slug && (slug.length > SLUG_MAX - 3 || !SLUG_PATTERN.test(slug)))
    errors.slug = t('files.upload.options.slugInvalid');
  if (state.max_views.trim() && !/^\d+$/.test(state.max_views.trim()))
    errors.max_views = t('files.upload.options.maxViewsInvalid');
  if (/(^|[\\/])\.\.([\\/]|$)|\0/.test(state.path)) errors.path = t('files.upload.options.pathInvalid');
  return errors;
}

export function toShareOptions(state: ShareOptionsState): ShareOptions {
  return {
    s3_config_id: state.s3_config_id || undefined,
    slug: state.slug.trim() || undefined,
    path: state.path.trim() || undefined,
    remark: state.remark.trim() || undefined,
    password: state.password || undefined,
    expires_in: Number(state.expiry) || undefined,
    max_views: Number(state.max_views) || undefined,
    use_proxy: state.proxy === 'default' ? undefined : state.proxy === 'proxy',
  };
}

const EXPIRY_KEYS: Record<number, 'hour' | 'day' | 'week' | 'month' | 'never'> = {
  1: 'hour',
  24: 'day',
  168: 'week',
  720: 'month',
  0: 'never',
};

/** The storage config select of the upload tabs (admins): default config marked. */
export function StorageTargetField({
  id,
  value,
  onChange,
  targets,
  loading = false,
  help,
}: {
  id: string;
  value: string;
  onChange: (id: string) => void;
  targets: StorageConfigView[];
  loading?: boolean;
  help?: string;
}) {
  const { t } = useTranslation();
  return (
    <Field id={id} label={t('files.upload.options.storage')} help={help}>
      {loading ? (
        <Skeleton className="h-10 w-full" />
      ) : (
        <Select
          {...fieldAria(id, undefined, help !== undefined)}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        >
          {targets.map((config) => (
            <option key={config.id} value={config.id}>
              {storageConfigName(t, config)}
              {config.is_default ? ` (${t('files.upload.options.default')})` : ''}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

/** Expiry presets of a share (1 h, 1 d, 7 d, 30 d, never) as chips; the value is hours as a string. */
export function ExpiryField({ id, value, onChange }: { id: string; value: string; onChange: (hours: string) => void }) {
  const { t } = useTranslation();
  return (
    <Field id={id} label={t('files.upload.options.expiry')}>
      <ChoiceChips
        id={id}
        label={t('files.upload.options.expiry')}
        value={value}
        onChange={onChange}
        options={SHARE_EXPIRY_PRESET_HOURS.map((hours) => ({
          value: String(hours),
          label: t(`files.expiry.${EXPIRY_KEYS[hours]!}`),
        }))}
      />
    </Field>
  );
}

/** Storage target (admins) and share options (spec §2 Upload, §5). */
export function ShareOptionsForm({
  value,
  onChange,
  errors,
  disabled,
  targets,
  targetsLoading,
  showTargets,
}: {
  value: ShareOptionsState;
  onChange: (next: ShareOptionsState) => void;
  errors: OptionErrors;
  disabled: boolean;
  targets: StorageConfigView[];
  targetsLoading: boolean;
  showTargets: boolean;
}) {
  const { t } = useTranslation();
  const [more, setMore] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const set = <K extends keyof ShareOptionsState>(key: K, v: ShareOptionsState[K]) => onChange({ ...value, [key]: v });
  const target = targets.find((c) => c.id === value.s3_config_id);

  return (
    <fieldset disabled={disabled} className="flex min-w-0 flex-col gap-4">
      <legend className="sr-only">{t('files.upload.options.title')}</legend>
      {showTargets && (
        <StorageTargetField
          id="upload-target"
          value={value.s3_config_id}
          onChange={(id) => set('s3_config_id', id)}
          targets={targets}
          loading={targetsLoading}
          help={t('files.upload.options.storageHelp')}
        />
      )}

      <SwitchField
        id="upload-encrypted"
        className="rounded-lg border border-border px-3 py-2.5"
        label={t('files.upload.options.encrypted')}
        help={value.encrypted ? t('files.upload.options.encryptedOnHelp') : t('files.upload.options.encryptedHelp')}
        checked={value.encrypted === true}
        onCheckedChange={(next) => set('encrypted', next)}
      />

      <ExpiryField id="upload-expiry" value={value.expiry} onChange={(v) => set('expiry', v)} />

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
        <Field
          id="upload-password"
          label={t('files.upload.options.password')}
          optional={t('common.optional')}
          help={
            value.encrypted ? t('files.upload.options.passwordHelpEncrypted') : t('files.upload.options.passwordHelp')
          }
        >
          <div className="relative">
            <Input
              {...fieldAria('upload-password', undefined, true)}
              type={showPassword ? 'text' : 'password'}
              autoComplete="new-password"
              value={value.password}
              onChange={(event) => set('password', event.target.value)}
              className="pe-11"
            />
            <IconButton
              label={showPassword ? t('files.upload.options.hidePassword') : t('files.upload.options.showPassword')}
              size="icon-sm"
              className="absolute end-0.5 top-1/2 -translate-y-1/2"
              onClick={() => setShowPassword((s) => !s)}
            >
              {showPassword ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
            </IconButton>
          </div>
        </Field>
        <Field
          id="upload-max-views"
          label={t('files.upload.options.maxViews')}
          optional={t('common.optional')}
          help={t('files.upload.options.maxViewsHelp')}
          error={errors.max_views}
        >
          <Input
            {...fieldAria('upload-max-views', errors.max_views, true)}
            inputMode="numeric"
            placeholder="0"
            value={value.max_views}
            onChange={(event) => set('max_views', event.target.value)}
          />
        </Field>
      </div>

      <button
        type="button"
        aria-expanded={more}
        aria-controls="upload-more-options"
        onClick={() => setMore((m) => !m)}
        className="-mx-1 inline-flex h-10 items-center gap-1.5 self-start rounded-md px-1 text-sm font-medium text-primary-soft-foreground hover:underline focus-visible:outline-2 focus-visible:outline-ring"
      >
        <ChevronDown className={cn('size-4 transition-transform', more && 'rotate-180')} aria-hidden="true" />
        {more ? t('files.upload.options.fewer') : t('files.upload.options.more')}
      </button>

      <div id="upload-more-options" hidden={!more} className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
          <Field
            id="upload-slug"
            label={t('files.upload.options.slug')}
            optional={t('common.optional')}
            help={t('files.upload.options.slugHelp')}
            error={errors.slug}
          >
            <Input
              {...fieldAria('upload-slug', errors.slug, true)}
              value={value.slug}
              maxLength={SLUG_MAX}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => set('slug', event.target.value)}
            />
          </Field>
          <Field
            id="upload-path"
            label={t('files.upload.options.path')}
            optional={t('common.optional')}
            help={t('files.upload.options.pathHelp')}
            error={errors.path}
          >
            <Input
              {...fieldAria('upload-path', errors.path, true)}
              value={value.path}
              placeholder="docs/2026"
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => set('path', event.target.value)}
            />
          </Field>
        </div>
        {/* The server would store a remark in clear next to the ciphertext: none for encrypted files. */}
        {!value.encrypted && (
          <Field id="upload-remark" label={t('files.upload.options.remark')} optional={t('common.optional')}>
            <Input
              id="upload-remark"
              value={value.remark}
              maxLength={1000}
              onChange={(event) => set('remark', event.target.value)}
            />
          </Field>
        )}
        {(!showTargets || target?.storage_type === 's3') && (
          <Field id="upload-proxy" label={t('files.upload.options.access')} help={t('files.upload.options.accessHelp')}>
            <ChoiceChips
              id="upload-proxy"
              label={t('files.upload.options.access')}
              value={value.proxy}
              onChange={(v) => set('proxy', v)}
              options={[
                { value: 'default', label: t('files.upload.options.accessDefault') },
                { value: 'proxy', label: t('files.upload.options.accessProxy') },
                { value: 'direct', label: t('files.upload.options.accessDirect') },
              ]}
            />
          </Field>
        )}
      </div>
    </fieldset>
  );
}
