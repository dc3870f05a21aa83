import { SettingGroup, faviconSchema, type SettingKey } from '@clipnest/contract';
import { ImageOff } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../components/ui/alert';
import { Field } from '../../components/ui/field';
import { Input, Textarea } from '../../components/ui/input';
import { renderSafeMarkdown } from '../../lib/markdown';
import {
  fieldProps,
  SettingsPageFrame,
  SettingsSection,
  SwitchRow,
  useSettingsForm,
  type SettingsForm,
} from '../settings-global/kit';

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
  const f = fieldProps(form, settingKey);
  const text = String(form.values[settingKey] ?? '');
  const deferred = useDeferredValue(text);
  const html = useMemo(() => (deferred.trim() ? renderSafeMarkdown(deferred) : ''), [deferred]);
  return (
    <div className="grid gap-3 lg:grid-cols-2">
      <Field id={f.id} label={label} help={help} error={f.error}>
        <Textarea
          {...f.aria}
          rows={rows}
          className="font-mono text-xs"
          value={text}
          onChange={(event) => form.set(settingKey, event.target.value)}
        />
      </Field>
      <div className="flex min-w-0 flex-col gap-1.5">
        <span className="text-sm font-medium text-muted-foreground">{t('adminPanel.site.preview')}</span>
        <div
          data-testid={`${settingKey}-preview`}
          aria-live="polite"
          className="min-h-24 flex-1 overflow-auto rounded-lg border border-dashed border-border bg-surface-muted px-3 py-2"
        >
          {html ? (
            <div className="prose-quiet break-words" dangerouslySetInnerHTML={{ __html: html }} />
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
  const title = fieldProps(form, 'site_title');
  const favicon = fieldProps(form, 'site_favicon_url');
  const head = fieldProps(form, 'site_custom_head');
  const body = fieldProps(form, 'site_custom_body');

  return (
    <SettingsPageFrame title={t('admin.pages.settingsSite')} description={t('admin.pageBody.settingsSite')} form={form}>
      <SettingsSection title={t('adminPanel.site.brandTitle')} description={t('adminPanel.site.brandBody')}>
        <Field
          id={title.id}
          label={t('adminPanel.site.title')}
          help={t('adminPanel.site.titleHelp')}
          error={title.error}
        >
          <Input
            {...title.aria}
            maxLength={100}
            value={String(form.values.site_title ?? '')}
            onChange={(event) => form.set('site_title', event.target.value)}
          />
        </Field>
        <Field
          id={favicon.id}
          label={t('adminPanel.site.favicon')}
          help={t('adminPanel.site.faviconHelp')}
          error={favicon.error}
        >
          <div className="flex items-center gap-2">
            <Input
              {...favicon.aria}
              type="url"
              inputMode="url"
              placeholder="https://example.com/favicon.png"
              value={String(form.values.site_favicon_url ?? '')}
              onChange={(event) => form.set('site_favicon_url', event.target.value.trim())}
              className="min-w-0 flex-1"
            />
            <FaviconPreview url={String(form.values.site_favicon_url ?? '')} />
          </div>
        </Field>
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
        <SwitchRow
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
        <Field
          id={head.id}
          label={t('adminPanel.site.customHead')}
          help={t('adminPanel.site.customHeadHelp')}
          error={head.error}
        >
          <Textarea
            {...head.aria}
            rows={5}
            spellCheck={false}
            className="font-mono text-xs"
            placeholder={'<link rel="stylesheet" href="…">'}
            value={String(form.values.site_custom_head ?? '')}
            onChange={(event) => form.set('site_custom_head', event.target.value)}
          />
        </Field>
        <Field
          id={body.id}
          label={t('adminPanel.site.customBodyLabel')}
          help={t('adminPanel.site.customBodyHelp')}
          error={body.error}
        >
          <Textarea
            {...body.aria}
            rows={5}
            spellCheck={false}
            className="font-mono text-xs"
            placeholder={'<script src="…"></script>'}
            value={String(form.values.site_custom_body ?? '')}
            onChange={(event) => form.set('site_custom_body', event.target.value)}
          />
        </Field>
      </SettingsSection>
    </SettingsPageFrame>
  );
}
