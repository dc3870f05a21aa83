import { OFFICE_PREVIEW_PROVIDERS, SettingGroup, type SettingKey } from '@clipnest/contract';
import { useTranslation } from 'react-i18next';
import { ChoiceChips } from '../../components/ui/choice-chips';
import { Field } from '../../components/ui/field';
import { Textarea } from '../../components/ui/input';
import { fieldProps, SettingsPageFrame, SettingsSection, useSettingsForm } from '../settings-global/kit';

const LISTS = [
  'preview_text_types',
  'preview_image_types',
  'preview_video_types',
  'preview_audio_types',
  'preview_office_types',
  'preview_document_types',
] as const satisfies readonly SettingKey[];

const KEYS: SettingKey[] = [...LISTS, 'preview_office_provider'];

function countOf(value: unknown): number {
  return String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean).length;
}

/** Preview settings (spec §3, §5): extension lists per kind and the office preview provider. */
export default function PreviewSettingsPage() {
  const { t } = useTranslation();
  const form = useSettingsForm(SettingGroup.PREVIEW, KEYS);
  const provider =
    (form.values.preview_office_provider as (typeof OFFICE_PREVIEW_PROVIDERS)[number] | undefined) ?? 'microsoft';
  const providerField = fieldProps(form, 'preview_office_provider');

  return (
    <SettingsPageFrame
      title={t('admin.pages.settingsPreview')}
      description={t('admin.pageBody.settingsPreview')}
      form={form}
    >
      <SettingsSection title={t('adminPanel.preview.listsTitle')} description={t('adminPanel.preview.listsBody')}>
        {LISTS.map((key) => {
          const f = fieldProps(form, key);
          const kind = key.replace('preview_', '').replace('_types', '') as
            'text' | 'image' | 'video' | 'audio' | 'office' | 'document';
          return (
            <Field
              key={key}
              id={f.id}
              label={t(`adminPanel.preview.kinds.${kind}`)}
              help={t('adminPanel.preview.listHelp', { count: countOf(form.values[key]) })}
              error={f.error}
            >
              <Textarea
                {...f.aria}
                rows={2}
                spellCheck={false}
                autoCapitalize="off"
                className="min-h-16 font-mono text-xs"
                value={String(form.values[key] ?? '')}
                onChange={(event) => form.set(key, event.target.value)}
              />
            </Field>
          );
        })}
      </SettingsSection>
      <SettingsSection title={t('adminPanel.preview.providerTitle')} description={t('adminPanel.preview.providerBody')}>
        <div className="flex flex-col gap-2">
          <ChoiceChips
            id={providerField.id}
            label={t('adminPanel.preview.providerTitle')}
            value={provider}
            onChange={(value) => form.set('preview_office_provider', value)}
            options={OFFICE_PREVIEW_PROVIDERS.map((p) => ({ value: p, label: t(`adminPanel.preview.providers.${p}`) }))}
          />
          {providerField.error ? (
            <p role="alert" className="text-xs font-medium text-destructive-soft-foreground">
              {providerField.error}
            </p>
          ) : (
            <p className="text-xs text-muted-foreground">{t(`adminPanel.preview.providerHelp.${provider}`)}</p>
          )}
        </div>
      </SettingsSection>
    </SettingsPageFrame>
  );
}
