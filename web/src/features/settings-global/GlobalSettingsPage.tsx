import {
  FILE_OVERWRITE_MODES,
  SIZE_UNITS,
  SIZE_UNIT_BYTES,
  SettingGroup,
  type SettingKey,
  type SizeUnit,
} from '@clipnest/contract';
import { useTranslation } from '../../lib/useTranslation';
import {
  fieldProps,
  SettingChoices,
  SettingField,
  SettingInput,
  SettingsPageFrame,
  SettingsSection,
  SettingSwitch,
  useSettingsForm,
} from '../../components/settings';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { formatNumber } from '../../lib/format';

const KEYS: SettingKey[] = [
  'max_upload_size',
  'max_upload_size_unit',
  'default_use_proxy',
  'file_overwrite_mode',
  'proxy_sign_all',
  'proxy_sign_expires',
  'audit_log_retention_days',
  'audit_log_views',
];

/** Global settings (spec §3): upload limit with units, proxy defaults, overwrite mode, signing. */
export default function GlobalSettingsPage() {
  const { t, i18n } = useTranslation();
  const form = useSettingsForm(SettingGroup.GLOBAL, KEYS);
  const unit = fieldProps(form, 'max_upload_size_unit', false);
  const sizeValue = Number(form.values.max_upload_size);
  const unitValue = (form.values.max_upload_size_unit as SizeUnit | undefined) ?? 'MB';
  const bytes = Number.isFinite(sizeValue) && sizeValue > 0 ? Math.floor(sizeValue * SIZE_UNIT_BYTES[unitValue]) : null;
  const overwrite = (form.values.file_overwrite_mode as (typeof FILE_OVERWRITE_MODES)[number] | undefined) ?? 'rename';

  return (
    <SettingsPageFrame
      title={t('admin.pages.settingsGlobal')}
      description={t('admin.pageBody.settingsGlobal')}
      form={form}
    >
      <SettingsSection title={t('adminPanel.global.uploadTitle')} description={t('adminPanel.global.uploadBody')}>
        <SettingField
          form={form}
          settingKey="max_upload_size"
          label={t('adminPanel.global.maxUploadSize')}
          help={
            bytes !== null
              ? t('adminPanel.global.maxUploadSizeBytes', { bytes: formatNumber(bytes, i18n.language) })
              : t('adminPanel.global.maxUploadSizeHelp')
          }
          error={unit.error}
        >
          {(aria) => (
            <div className="flex gap-2">
              <Input
                {...aria}
                type="number"
                inputMode="decimal"
                min={0}
                step="any"
                value={String(form.values.max_upload_size ?? '')}
                onChange={(event) => form.set('max_upload_size', event.target.value)}
                className="min-w-0 flex-1"
              />
              <Select
                {...unit.aria}
                aria-label={t('adminPanel.global.unit')}
                value={unitValue}
                onChange={(event) => form.set('max_upload_size_unit', event.target.value)}
                className="w-28 shrink-0"
              >
                {SIZE_UNITS.map((u) => (
                  <option key={u} value={u}>
                    {u}
                  </option>
                ))}
              </Select>
            </div>
          )}
        </SettingField>
        <SettingChoices
          form={form}
          settingKey="file_overwrite_mode"
          label={t('adminPanel.global.overwriteMode')}
          value={overwrite}
          options={FILE_OVERWRITE_MODES.map((mode) => ({
            value: mode,
            label: t(`adminPanel.global.overwrite.${mode}`),
          }))}
          help={t(`adminPanel.global.overwriteHelp.${overwrite}`)}
        />
      </SettingsSection>

      <SettingsSection title={t('adminPanel.global.proxyTitle')} description={t('adminPanel.global.proxyBody')}>
        <SettingSwitch
          form={form}
          settingKey="default_use_proxy"
          label={t('adminPanel.global.defaultUseProxy')}
          help={t('adminPanel.global.defaultUseProxyHelp')}
        />
        <SettingSwitch
          form={form}
          settingKey="proxy_sign_all"
          label={t('adminPanel.global.proxySignAll')}
          help={t('adminPanel.global.proxySignAllHelp')}
        />
        <SettingInput
          form={form}
          settingKey="proxy_sign_expires"
          label={t('adminPanel.global.signExpires')}
          help={t('adminPanel.global.signExpiresHelp')}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          className="w-40 flex-none"
          suffix={<span className="text-sm text-muted-foreground">{t('adminPanel.global.seconds')}</span>}
        />
      </SettingsSection>

      <SettingsSection
        title={t('adminPanel.auditLog.settingsTitle')}
        description={t('adminPanel.auditLog.settingsBody')}
      >
        <SettingInput
          form={form}
          settingKey="audit_log_retention_days"
          label={t('adminPanel.auditLog.retentionDays')}
          help={t('adminPanel.auditLog.retentionDaysHelp')}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          className="w-40 flex-none"
          suffix={<span className="text-sm text-muted-foreground">{t('adminPanel.auditLog.days')}</span>}
        />
        <SettingSwitch
          form={form}
          settingKey="audit_log_views"
          label={t('adminPanel.auditLog.recordViews')}
          help={t('adminPanel.auditLog.recordViewsHelp')}
        />
      </SettingsSection>
    </SettingsPageFrame>
  );
}
