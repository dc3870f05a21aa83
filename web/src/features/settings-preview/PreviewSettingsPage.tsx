import { OFFICE_PREVIEW_PROVIDERS, SettingGroup, type SettingKey } from '@clipnest/contract';
import { useTranslation } from '../../lib/useTranslation';
import {
  SettingChoices,
  SettingsPageFrame,
  SettingsSection,
  SettingTextarea,
  useSettingsForm,
} from '../../components/settings';

const LISTS = [
  'preview_text_types',
  'preview_image_types',
  'preview_video_types',
  'preview_audio_types',
  'preview_office_types',
  'preview_document_types',
  'preview_ebook_types',
  'preview_subtitle_types',
  'preview_hls_types',
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
    (form.values.preview_office_provider as (typeof OFFICE_PREVIEW_PROVIDERS)[number] | undefined) ?? 'builtin';

  return (
    <SettingsPageFrame
      title={t('admin.pages.settingsPreview')}
      description={t('admin.pageBody.settingsPreview')}
      form={form}
    >
      <SettingsSection title={t('adminPanel.preview.listsTitle')} description={t('adminPanel.preview.listsBody')}>
        {LISTS.map((key) => {
          const kind = key.replace('preview_', '').replace('_types', '') as
            'text' | 'image' | 'video' | 'audio' | 'office' | 'document' | 'ebook' | 'subtitle' | 'hls';
          return (
            <SettingTextarea
              key={key}
              form={form}
              settingKey={key}
              label={t(`adminPanel.preview.kinds.${kind}`)}
              help={t('adminPanel.preview.listHelp', { count: countOf(form.values[key]) })}
              rows={2}
              spellCheck={false}
              autoCapitalize="off"
              className="min-h-16 font-mono text-xs"
            />
          );
        })}
      </SettingsSection>
      <SettingsSection title={t('adminPanel.preview.providerTitle')} description={t('adminPanel.preview.providerBody')}>
        <SettingChoices
          form={form}
          settingKey="preview_office_provider"
          label={t('adminPanel.preview.providerTitle')}
          showLabel={false}
          value={provider}
          options={OFFICE_PREVIEW_PROVIDERS.map((p) => ({ value: p, label: t(`adminPanel.preview.providers.${p}`) }))}
          help={t(`adminPanel.preview.providerHelp.${provider}`)}
        />
      </SettingsSection>
    </SettingsPageFrame>
  );
}
