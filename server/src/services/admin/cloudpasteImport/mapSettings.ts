import { SETTINGS, type SettingKey, type SettingValues } from '@clipnest/contract';
import type { CloudpasteRow } from './backupFile.js';
import type { ImportContext } from './context.js';
import { cpSetting, parseRows } from './rows.js';

type Converted = Partial<Record<SettingKey, unknown>> | string;

const bool = (v: string): boolean | undefined =>
  v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : undefined;
const num = (v: string): number | undefined => (v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);

function same<K extends SettingKey>(key: K, convert: (v: string) => unknown = (v) => v) {
  return (value: string): Converted => {
    const converted = convert(value);
    return converted === undefined ? `value ${JSON.stringify(value)} cannot be read` : { [key]: converted };
  };
}

/** CloudPaste setting → the settings here it becomes (or why it cannot). Keys not listed have no counterpart. */
const COUNTERPARTS: Record<string, (value: string) => Converted> = {
  max_upload_size: (v) => {
    const n = num(v);
    return n === undefined
      ? `value ${JSON.stringify(v)} is not a number`
      : { max_upload_size: n, max_upload_size_unit: 'MB' };
  },
  default_use_proxy: same('default_use_proxy', bool),
  proxy_sign_all: same('proxy_sign_all', bool),
  proxy_sign_expires: same('proxy_sign_expires', num),
  file_naming_strategy: (v) =>
    v === 'overwrite' ? { file_overwrite_mode: 'overwrite' } : `strategy ${JSON.stringify(v)} has no counterpart`,
  webdav_upload_mode: (v) =>
    v === 'single' || v === 'direct'
      ? { webdav_upload_mode: 'direct' }
      : v === 'multipart' || v === 'chunked'
        ? { webdav_upload_mode: 'multipart' }
        : `mode ${JSON.stringify(v)} has no counterpart`,
  preview_text_types: same('preview_text_types'),
  preview_image_types: same('preview_image_types'),
  preview_video_types: same('preview_video_types'),
  preview_audio_types: same('preview_audio_types'),
  preview_office_types: same('preview_office_types'),
  preview_document_types: same('preview_document_types'),
  site_title: same('site_title'),
  site_favicon_url: same('site_favicon_url'),
  site_footer_markdown: same('site_footer_markdown'),
  site_custom_head: same('site_custom_head'),
  site_custom_body: same('site_custom_body'),
  site_announcement_enabled: same('site_announcement_enabled', bool),
  site_announcement_content: same('site_announcement_content'),
};

/** system_settings: each one with a counterpart is written when it differs from the value here. */
export function mapSettings(ctx: ImportContext, table: CloudpasteRow[] | undefined, current: SettingValues): void {
  const rows = parseRows('system_settings', table, cpSetting);
  ctx.report.total('settings', rows.length);
  for (const row of rows) {
    const convert = COUNTERPARTS[row.key];
    if (!convert) {
      ctx.report.notSupported('settings', row.key, row.key, 'no counterpart in Clipnest');
      continue;
    }
    const converted = convert(row.value);
    if (typeof converted === 'string') {
      ctx.report.notSupported('settings', row.key, row.key, converted);
      continue;
    }
    const changes: { key: SettingKey; value: unknown }[] = [];
    let problem: string | undefined;
    for (const [key, value] of Object.entries(converted) as [SettingKey, unknown][]) {
      const parsed = SETTINGS[key].schema.safeParse(value);
      if (!parsed.success) {
        problem = `${key}: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
        break;
      }
      if (JSON.stringify(parsed.data) !== JSON.stringify(current[key])) changes.push({ key, value: parsed.data });
    }
    if (problem) {
      ctx.report.skipped('settings', row.key, row.key, `cannot be imported: ${problem}`);
      continue;
    }
    if (changes.length === 0) {
      ctx.report.skipped('settings', row.key, row.key, 'already has this value here');
      continue;
    }
    for (const { key, value } of changes) {
      ctx.writes.settings.push({
        key,
        value: JSON.stringify(value),
        group_id: SETTINGS[key].group,
        updated_at: ctx.now,
      });
    }
    ctx.report.created(
      'settings',
      row.key,
      row.key,
      changes.map((c) => `${c.key} = ${JSON.stringify(c.value)}`).join(', '),
    );
  }
}
