import { SettingGroup, WEBDAV_UPLOAD_MODES, type SettingKey } from '@clipnest/contract';
import { Check } from 'lucide-react';
import { RadioGroup } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { fieldProps, SettingsPageFrame, SettingsSection, useSettingsForm } from '../../components/settings';
import { FieldMessage } from '../../components/ui/field';
import { cn } from '../../lib/cn';

const KEYS: SettingKey[] = ['webdav_upload_mode'];

/** WebDAV settings (spec §3): how WebDAV uploads reach storage, direct or multipart. */
export default function WebdavSettingsPage() {
  const { t } = useTranslation();
  const form = useSettingsForm(SettingGroup.WEBDAV, KEYS);
  const mode = (form.values.webdav_upload_mode as (typeof WEBDAV_UPLOAD_MODES)[number] | undefined) ?? 'direct';
  const field = fieldProps(form, 'webdav_upload_mode');

  return (
    <SettingsPageFrame
      title={t('admin.pages.settingsWebdav')}
      description={t('admin.pageBody.settingsWebdav')}
      form={form}
    >
      <SettingsSection title={t('adminPanel.webdav.uploadMode')} description={t('adminPanel.webdav.uploadModeBody')}>
        <RadioGroup.Root
          id={field.id}
          value={mode}
          onValueChange={(value) => form.set('webdav_upload_mode', value)}
          aria-label={t('adminPanel.webdav.uploadMode')}
          className="grid gap-3 sm:grid-cols-2"
        >
          {WEBDAV_UPLOAD_MODES.map((option) => (
            <RadioGroup.Item
              key={option}
              value={option}
              className={cn(
                'flex min-h-24 flex-col items-start gap-1 rounded-lg border p-4 text-start transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                'border-border bg-surface hover:bg-surface-hover',
                'data-[state=checked]:border-primary data-[state=checked]:bg-primary-soft',
              )}
            >
              <span className="flex w-full items-center justify-between gap-2 text-sm font-medium">
                {t(`adminPanel.webdav.modes.${option}`)}
                {mode === option && <Check className="size-4 text-primary" aria-hidden="true" />}
              </span>
              <span className="text-xs leading-snug text-muted-foreground">
                {t(`adminPanel.webdav.modeHelp.${option}`)}
              </span>
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
        <FieldMessage id={field.id} error={field.error} />
      </SettingsSection>
    </SettingsPageFrame>
  );
}
