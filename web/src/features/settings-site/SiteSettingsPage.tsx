import { SettingGroup, faviconSchema, type SettingKey } from '@clipnest/contract';
import { ImageOff } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from '../../lib/useTranslation';
import {
  SettingInput,
  SettingsPageFrame,
  SettingsSection,
  SettingSwitch,
  SettingTextarea,
  useSettingsForm,
  type SettingsForm,
} from '../../components/settings';
import { MarkdownView } from '../../components/markdown';
import { Alert } from '../../components/ui/alert';

const KEYS: SettingKey[] = [
  'site_title',
  'site_favicon_url',
  'site_footer_markdown',
  'site_custom_head',
  'site_custom_body',
  'site_announcement_enabled',
  'site_announcement_content',
];

function FaviconPreview({ url }: { url: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState<string | null>(null);
  const valid = url !== '' && faviconSchema.safeParse(url).success;
  return (
    <div
      className="grid size-10 shrink-0 place-items-center rounded-lg border border-border bg-surface-muted"
      title={t('adminPanel.site.faviconPreview')}
    >
      {valid && failed !== url ? (
        <img
          src={url}
          alt={t('adminPanel.site.faviconPreview')}
          className="size-6 object-contain"
          onError={() => setFailed(url)}
        />
      ) : (
        <ImageOff className="size-4 text-muted-foreground" aria-hidden="true" />
      )}
    </div>
  );
}

/** A Markdown textarea with a live, sanitised preview beside it (below it on phones). */
function MarkdownField({
  form,
  settingKey,
  label,
  help,
  rows = 5,
}: {
  form: SettingsForm;
  settingKey: SettingKey;
  label: string;
  help: string;
  rows?: number;
}) {
  const { t } = useTranslation();
  const text = String(form.values[settingKey] ?? '');
  const deferred = useDeferredValue(text);
  return (
    <div className="grid gap-3 lg:grid-cols-2">
      <SettingTextarea
        form={form}
        settingKey={settingKey}
        label={label}
        help={help}
        rows={rows}
        className="font-mono text-xs"
      />
      <div className="flex min-w-0 flex-col gap-1.5">
        <span className="text-sm font-medium text-muted-foreground">{t('adminPanel.site.preview')}</span>
        <div
          data-testid={`${settingKey}-preview`}
          aria-live="polite"
          className="min-h-24 flex-1 overflow-auto rounded-lg border border-dashed border-border bg-surface-muted px-3 py-2"
        >
          {deferred.trim() ? (
            <MarkdownView variant="compact" source={deferred} debounceMs={150} className="prose-quiet break-words" />
          ) : (
            <p className="text-sm text-muted-foreground">{t('adminPanel.site.previewEmpty')}</p>
          )}
        </div>
      </div>
    </div>
  );
}

/** Site settings (spec §1, §3, §5): title, favicon, footer, custom code and the announcement. */
export default function SiteSettingsPage() {
  const { t } = useTranslation();
  const form = useSettingsForm(SettingGroup.SITE, KEYS);

  return (
    <SettingsPageFrame title={t('admin.pages.settingsSite')} description={t('admin.pageBody.settingsSite')} form={form}>
      <SettingsSection title={t('adminPanel.site.brandTitle')} description={t('adminPanel.site.brandBody')}>
        <SettingInput
          form={form}
          settingKey="site_title"
          label={t('adminPanel.site.title')}
          help={t('adminPanel.site.titleHelp')}
          maxLength={100}
        />
        <SettingInput
          form={form}
          settingKey="site_favicon_url"
          label={t('adminPanel.site.favicon')}
          help={t('adminPanel.site.faviconHelp')}
          type="url"
          inputMode="url"
          placeholder="https://example.com/favicon.png"
          trim
          suffix={<FaviconPreview url={String(form.values.site_favicon_url ?? '')} />}
        />
        <MarkdownField
          form={form}
          settingKey="site_footer_markdown"
          label={t('adminPanel.site.footer')}
          help={t('adminPanel.site.footerHelp')}
          rows={4}
        />
      </SettingsSection>

      <SettingsSection
        title={t('adminPanel.site.announcementTitle')}
        description={t('adminPanel.site.announcementBody')}
      >
        <SettingSwitch
          form={form}
          settingKey="site_announcement_enabled"
          label={t('adminPanel.site.announcementEnabled')}
          help={t('adminPanel.site.announcementEnabledHelp')}
        />
        <MarkdownField
          form={form}
          settingKey="site_announcement_content"
          label={t('adminPanel.site.announcementContent')}
          help={t('adminPanel.site.announcementContentHelp')}
        />
      </SettingsSection>

      <SettingsSection title={t('adminPanel.site.customTitle')} description={t('adminPanel.site.customBody')}>
        <Alert tone="warning">{t('adminPanel.site.customWarning')}</Alert>
        <SettingTextarea
          form={form}
          settingKey="site_custom_head"
          label={t('adminPanel.site.customHead')}
          help={t('adminPanel.site.customHeadHelp')}
          rows={5}
          spellCheck={false}
          className="font-mono text-xs"
          placeholder={'<link rel="stylesheet" href="…">'}
        />
        <SettingTextarea
          form={form}
          settingKey="site_custom_body"
          label={t('adminPanel.site.customBodyLabel')}
          help={t('adminPanel.site.customBodyHelp')}
          rows={5}
          spellCheck={false}
          className="font-mono text-xs"
          placeholder={'<script src="…"></script>'}
        />
      </SettingsSection>
    </SettingsPageFrame>
  );
}
