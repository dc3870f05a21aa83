import { useId } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { Field, fieldAria } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { PasswordInput } from '../../components/ui/password-input';
import { SwitchField } from '../../components/ui/switch';
import { EXPIRY_CHOICES, type ExpiryChoice, type ShareFieldError, type ShareOptionsState } from '../pastes/shareForm';

export function useExpiryOptions() {
  const { t } = useTranslation();
  return EXPIRY_CHOICES.map((value) => ({ value, label: t(`paste.expiry.${value}`) }));
}

/** Remark, custom slug, password, expiry and max views (spec §2 Home). */
export function ShareOptionsFields({
  value,
  onChange,
  errors,
  passwordPlaceholder,
}: {
  value: ShareOptionsState;
  onChange: (next: ShareOptionsState) => void;
  errors: Partial<Record<keyof ShareOptionsState, ShareFieldError>>;
  passwordPlaceholder?: string;
}) {
  const { t } = useTranslation();
  const base = useId();
  const ids = {
    remark: `${base}-remark`,
    slug: `${base}-slug`,
    password: `${base}-password`,
    expiry: `${base}-expiry`,
    maxViews: `${base}-max-views`,
    encrypted: `${base}-encrypted`,
  };
  const set = <K extends keyof ShareOptionsState>(key: K, next: ShareOptionsState[K]) =>
    onChange({ ...value, [key]: next });
  const err = (key: keyof ShareOptionsState) => (errors[key] ? t(`paste.share.errors.${errors[key]}`) : undefined);
  const expiryOptions = useExpiryOptions();

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SwitchField
        id={ids.encrypted}
        className="rounded-lg border border-border px-3 py-2.5 sm:col-span-2"
        label={t('paste.share.encrypted')}
        help={value.encrypted ? t('paste.share.encryptedOnHelp') : t('paste.share.encryptedHelp')}
        checked={value.encrypted === true}
        onCheckedChange={(next) => set('encrypted', next)}
      />
      <Field id={ids.remark} label={t('paste.share.remark')} optional={t('common.optional')} error={err('remark')}>
        <Input
          {...fieldAria(ids.remark, err('remark'), false)}
          value={value.remark}
          maxLength={1000}
          onChange={(event) => set('remark', event.target.value)}
          placeholder={t('paste.share.remarkPlaceholder')}
        />
      </Field>
      <Field
        id={ids.slug}
        label={t('paste.share.slug')}
        optional={t('common.optional')}
        help={t('paste.share.slugHelp')}
        error={err('slug')}
      >
        <div className="flex items-stretch">
          <span className="inline-flex items-center rounded-s-lg border border-e-0 border-input bg-surface-muted px-2.5 font-mono text-xs text-muted-foreground">
            /paste/
          </span>
          <Input
            {...fieldAria(ids.slug, err('slug'), true)}
            value={value.slug}
            maxLength={60}
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            onChange={(event) => set('slug', event.target.value)}
            placeholder={t('paste.share.slugPlaceholder')}
            className="rounded-s-none font-mono"
          />
        </div>
      </Field>
      <Field
        id={ids.password}
        label={t('paste.share.password')}
        optional={t('common.optional')}
        help={value.encrypted ? t('paste.share.passwordHelpEncrypted') : t('paste.share.passwordHelp')}
        error={err('password')}
      >
        <PasswordInput
          id={ids.password}
          value={value.password}
          onChange={(next) => set('password', next)}
          placeholder={passwordPlaceholder}
          invalid={!!errors.password}
          describedBy={errors.password ? `${ids.password}-error` : `${ids.password}-help`}
        />
      </Field>
      <Field
        id={ids.maxViews}
        label={t('paste.share.maxViews')}
        help={t('paste.share.maxViewsHelp')}
        error={err('maxViews')}
      >
        <Input
          {...fieldAria(ids.maxViews, err('maxViews'), true)}
          inputMode="numeric"
          value={value.maxViews}
          onChange={(event) => set('maxViews', event.target.value)}
          placeholder="0"
        />
      </Field>
      <div className="flex flex-col gap-1.5 sm:col-span-2">
        <span id={ids.expiry} className="text-sm font-medium">
          {t('paste.share.expiry')}
        </span>
        <ChoiceChips<ExpiryChoice>
          value={value.expiry}
          onChange={(next) => set('expiry', next)}
          options={expiryOptions}
          label={t('paste.share.expiry')}
        />
      </div>
    </div>
  );
}
