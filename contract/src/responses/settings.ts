import {
  SETTING_KEYS,
  type SettingGroupView,
  type SettingKey,
  type SettingView,
  type SiteSettings,
} from '../settings.js';
import { z } from '../zod.js';
import { isoTime, shapeOf } from './define.js';

const settingKey = z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]);
const groupId = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

export const settingViewSchema = shapeOf<SettingView>()(
  z
    .object({
      key: settingKey,
      value: z.unknown(),
      group: groupId,
      type: z.enum(['number', 'string', 'textarea', 'boolean', 'select']),
      default_value: z.unknown(),
      options: z.array(z.string()).readonly().optional(),
      updated_at: isoTime.nullable(),
    })
    .meta({ id: 'SettingView' }),
);

export const settingGroupViewSchema = shapeOf<SettingGroupView>()(
  z.object({ id: groupId, name: z.string(), keys: z.array(settingKey) }).meta({ id: 'SettingGroupView' }),
);

export const siteSettingsSchema = shapeOf<SiteSettings>()(
  z
    .object({
      site_title: z.string(),
      site_favicon_url: z.string(),
      site_footer_markdown: z.string(),
      site_custom_head: z.string(),
      site_custom_body: z.string(),
      site_announcement_enabled: z.boolean(),
      site_announcement_content: z.string(),
    })
    .meta({ id: 'SiteSettings' }),
);
