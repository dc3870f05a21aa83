import { z } from './zod.js';
import { SITE_DEFAULTS } from './siteDefaults.js';
import { PREVIEW_TYPE_DEFAULTS } from './previewTypes.js';

/** Settings groups (spec §3): site settings are group 4. */
export const SettingGroup = {
  GLOBAL: 1,
  PREVIEW: 2,
  WEBDAV: 3,
  SITE: 4,
} as const;
export type SettingGroupId = (typeof SettingGroup)[keyof typeof SettingGroup];

export const SETTING_GROUP_NAMES: Record<SettingGroupId, string> = {
  1: 'global',
  2: 'preview',
  3: 'webdav',
  4: 'site',
};

export type SettingType = 'number' | 'string' | 'textarea' | 'boolean' | 'select';

export const SIZE_UNITS = ['KB', 'MB', 'GB'] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];
export const SIZE_UNIT_BYTES: Record<SizeUnit, number> = { KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

export const FILE_OVERWRITE_MODES = ['overwrite', 'rename', 'reject'] as const;
export const WEBDAV_UPLOAD_MODES = ['direct', 'multipart'] as const;
/** `builtin` renders office documents in the page from our own origin; the others send a link to a third-party viewer. */
export const OFFICE_PREVIEW_PROVIDERS = ['builtin', 'microsoft', 'google'] as const;

const FAVICON_MAX = 256 * 1024;
const extensionList = z
  .string()
  .max(4000, 'the list is too long')
  .refine((s) => s.split(',').every((ext) => /^[a-z0-9+_-]*$/i.test(ext.trim())), {
    message: 'use comma-separated extensions without dots, e.g. "txt,md"',
  })
  .transform((s) =>
    s
      .split(',')
      .map((ext) => ext.trim().toLowerCase())
      .filter(Boolean)
      .join(','),
  );

export const faviconSchema = z
  .string()
  .max(FAVICON_MAX, 'the favicon is too large (256 KB at most)')
  .refine((s) => s === '' || /^https?:\/\/[^\s]+$/i.test(s) || /^data:image\/[a-z0-9.+-]+(;base64)?,/i.test(s), {
    message: 'the favicon must be an http(s) link or a data:image URL',
  });

interface SettingDefinition<S extends z.ZodType = z.ZodType> {
  group: SettingGroupId;
  type: SettingType;
  schema: S;
  defaultValue: z.output<S>;
  options?: readonly string[];
}

function define<S extends z.ZodType>(def: SettingDefinition<S>): SettingDefinition<S> {
  return def;
}

export const SETTINGS = {
  // group 1: global
  max_upload_size: define({
    group: 1,
    type: 'number',
    schema: z
      .number({ error: 'must be a number' })
      .positive('must be greater than 0')
      .max(1024 ** 3, 'is too large'),
    defaultValue: 100,
  }),
  max_upload_size_unit: define({
    group: 1,
    type: 'select',
    schema: z.enum(SIZE_UNITS, { error: 'must be KB, MB or GB' }),
    defaultValue: 'MB' as SizeUnit,
    options: SIZE_UNITS,
  }),
  default_use_proxy: define({
    group: 1,
    type: 'boolean',
    schema: z.boolean({ error: 'must be true or false' }),
    defaultValue: true,
  }),
  file_overwrite_mode: define({
    group: 1,
    type: 'select',
    schema: z.enum(FILE_OVERWRITE_MODES, { error: `must be one of ${FILE_OVERWRITE_MODES.join(', ')}` }),
    defaultValue: 'rename' as (typeof FILE_OVERWRITE_MODES)[number],
    options: FILE_OVERWRITE_MODES,
  }),
  proxy_sign_all: define({
    group: 1,
    type: 'boolean',
    schema: z.boolean({ error: 'must be true or false' }),
    defaultValue: false,
  }),
  proxy_sign_expires: define({
    group: 1,
    type: 'number',
    schema: z
      .number({ error: 'must be a number' })
      .int('must be whole seconds')
      .min(0, 'cannot be negative')
      .max(31_536_000, 'is at most one year'),
    defaultValue: 0,
  }),
  // group 1: scheduled backups (spec §3 Backup; run by the server, kept as the last N files)
  backup_schedule_enabled: define({
    group: 1,
    type: 'boolean',
    schema: z.boolean({ error: 'must be true or false' }),
    defaultValue: false,
  }),
  backup_schedule_storage_config_id: define({
    group: 1,
    type: 'string',
    schema: z.string().trim().max(64, 'is too long'),
    defaultValue: '',
  }),
  backup_schedule_interval_hours: define({
    group: 1,
    type: 'number',
    schema: z
      .number({ error: 'must be a number' })
      .int('must be whole hours')
      .min(1, 'must be at least 1 hour')
      .max(8760, 'is at most one year'),
    defaultValue: 24,
  }),
  backup_schedule_keep: define({
    group: 1,
    type: 'number',
    schema: z
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'keep at least 1 backup')
      .max(365, 'is at most 365'),
    defaultValue: 7,
  }),
  // group 1: audit log (docs/security.md)
  audit_log_retention_days: define({
    group: 1,
    type: 'number',
    schema: z
      .number({ error: 'must be a number' })
      .int('must be whole days')
      .min(0, 'cannot be negative (0 keeps entries forever)')
      .max(36_500, 'is at most 100 years'),
    defaultValue: 180,
  }),
  audit_log_views: define({
    group: 1,
    type: 'boolean',
    schema: z.boolean({ error: 'must be true or false' }),
    defaultValue: false,
  }),
  // group 2: preview
  preview_text_types: define({
    group: 2,
    type: 'textarea',
    schema: extensionList,
    defaultValue:
      'txt,htm,html,xml,java,properties,sql,js,md,json,conf,ini,vue,php,py,bat,yml,yaml,go,sh,c,cpp,h,hpp,tsx,ts,jsx,css,scss,less,rs,rb,kt,swift,log,csv,toml',
  }),
  preview_image_types: define({
    group: 2,
    type: 'textarea',
    schema: extensionList,
    defaultValue: 'jpg,jpeg,png,gif,webp,bmp,ico,avif,svg',
  }),
  preview_video_types: define({
    group: 2,
    type: 'textarea',
    schema: extensionList,
    defaultValue: 'mp4,webm,ogv,mov,m4v,mkv',
  }),
  preview_audio_types: define({
    group: 2,
    type: 'textarea',
    schema: extensionList,
    defaultValue: 'mp3,wav,ogg,flac,aac,m4a,opus',
  }),
  preview_office_types: define({
    group: 2,
    type: 'textarea',
    schema: extensionList,
    defaultValue: 'doc,docx,xls,xlsx,ppt,pptx,rtf',
  }),
  preview_document_types: define({ group: 2, type: 'textarea', schema: extensionList, defaultValue: 'pdf' }),
  preview_ebook_types: define({
    group: 2,
    type: 'textarea',
    schema: extensionList,
    defaultValue: PREVIEW_TYPE_DEFAULTS.preview_ebook_types as string,
  }),
  preview_subtitle_types: define({
    group: 2,
    type: 'textarea',
    schema: extensionList,
    defaultValue: PREVIEW_TYPE_DEFAULTS.preview_subtitle_types as string,
  }),
  preview_hls_types: define({
    group: 2,
    type: 'textarea',
    schema: extensionList,
    defaultValue: PREVIEW_TYPE_DEFAULTS.preview_hls_types as string,
  }),
  preview_office_provider: define({
    group: 2,
    type: 'select',
    schema: z.enum(OFFICE_PREVIEW_PROVIDERS, { error: 'unsupported preview provider' }),
    defaultValue: 'builtin' as (typeof OFFICE_PREVIEW_PROVIDERS)[number],
    options: OFFICE_PREVIEW_PROVIDERS,
  }),
  // group 3: WebDAV
  webdav_upload_mode: define({
    group: 3,
    type: 'select',
    schema: z.enum(WEBDAV_UPLOAD_MODES, { error: 'must be direct or multipart' }),
    defaultValue: 'direct' as (typeof WEBDAV_UPLOAD_MODES)[number],
    options: WEBDAV_UPLOAD_MODES,
  }),
  // group 4: site
  site_title: define({
    group: 4,
    type: 'string',
    schema: z.string().trim().min(1, 'the title cannot be empty').max(100, 'at most 100 characters'),
    defaultValue: SITE_DEFAULTS.site_title,
  }),
  site_favicon_url: define({
    group: 4,
    type: 'string',
    schema: faviconSchema,
    defaultValue: SITE_DEFAULTS.site_favicon_url,
  }),
  site_footer_markdown: define({
    group: 4,
    type: 'textarea',
    schema: z.string().max(20_000, 'at most 20,000 characters'),
    defaultValue: SITE_DEFAULTS.site_footer_markdown,
  }),
  site_custom_head: define({
    group: 4,
    type: 'textarea',
    schema: z.string().max(100_000, 'at most 100,000 characters'),
    defaultValue: SITE_DEFAULTS.site_custom_head,
  }),
  site_custom_body: define({
    group: 4,
    type: 'textarea',
    schema: z.string().max(100_000, 'at most 100,000 characters'),
    defaultValue: SITE_DEFAULTS.site_custom_body,
  }),
  site_announcement_enabled: define({
    group: 4,
    type: 'boolean',
    schema: z.boolean({ error: 'must be true or false' }),
    defaultValue: SITE_DEFAULTS.site_announcement_enabled,
  }),
  site_announcement_content: define({
    group: 4,
    type: 'textarea',
    schema: z.string().max(20_000, 'at most 20,000 characters'),
    defaultValue: SITE_DEFAULTS.site_announcement_content,
  }),
} satisfies Record<string, SettingDefinition>;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValues = { [K in SettingKey]: z.output<(typeof SETTINGS)[K]['schema']> };
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTINGS, key);
}

export function settingKeysOfGroup(group: SettingGroupId): SettingKey[] {
  return SETTING_KEYS.filter((key) => SETTINGS[key].group === group);
}

export function isSettingGroupId(value: number): value is SettingGroupId {
  return value === 1 || value === 2 || value === 3 || value === 4;
}

export const DEFAULT_SETTINGS = Object.fromEntries(
  SETTING_KEYS.map((key) => [key, SETTINGS[key].defaultValue]),
) as SettingValues;

/** One setting as the settings API answers it. */
export interface SettingView {
  key: SettingKey;
  value: unknown;
  group: SettingGroupId;
  type: SettingType;
  default_value: unknown;
  options?: readonly string[];
  updated_at: string | null;
}

export interface SettingGroupView {
  id: SettingGroupId;
  name: string;
  keys: SettingKey[];
}

/** The public subset the web shell reads without auth. */
export type SiteSettings = Pick<
  SettingValues,
  | 'site_title'
  | 'site_favicon_url'
  | 'site_footer_markdown'
  | 'site_custom_head'
  | 'site_custom_body'
  | 'site_announcement_enabled'
  | 'site_announcement_content'
>;

export function maxUploadBytes(values: Pick<SettingValues, 'max_upload_size' | 'max_upload_size_unit'>): number {
  return Math.floor(values.max_upload_size * SIZE_UNIT_BYTES[values.max_upload_size_unit]);
}
