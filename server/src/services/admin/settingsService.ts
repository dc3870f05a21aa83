import {
  DEFAULT_SETTINGS,
  SETTING_GROUP_NAMES,
  SETTINGS,
  isSettingKey,
  settingKeysOfGroup,
  type SettingGroupId,
  type SettingGroupView,
  type SettingKey,
  type SettingValues,
  type SettingView,
  type SiteSettings,
  type PreviewTypeSettings,
  type ValidationErrorData,
} from '@clipnest/contract';
import { AppError } from '../../errors.js';
import { isoNow, type Clock } from '../../lib/clock.js';
import type { SettingsRepository } from '../../repositories/settingsRepository.js';
import type { CacheHandle } from './cacheRegistry.js';

export interface SettingsServiceDeps {
  settings: SettingsRepository;
  clock: Clock;
  /** How long values are served from memory before the database is read again (other instances may write). */
  cacheTtlMs?: number;
  /** Called after this instance saved settings (tells the other instances to reload). */
  onSaved?: () => void;
}

interface Snapshot {
  values: SettingValues;
  updatedAt: Partial<Record<SettingKey, string>>;
  loadedAt: number;
}

const GROUP_IDS = Object.keys(SETTING_GROUP_NAMES).map(Number) as SettingGroupId[];

export class SettingsService {
  private snapshot: Snapshot | undefined;

  constructor(private readonly deps: SettingsServiceDeps) {}

  private async load(): Promise<Snapshot> {
    const ttl = this.deps.cacheTtlMs ?? 5000;
    const now = this.deps.clock.now().getTime();
    if (this.snapshot && now - this.snapshot.loadedAt < ttl) return this.snapshot;
    const values: Record<string, unknown> = { ...DEFAULT_SETTINGS };
    const updatedAt: Partial<Record<SettingKey, string>> = {};
    for (const row of await this.deps.settings.all()) {
      if (!isSettingKey(row.key)) continue; // a key from a newer or older version: ignored, kept in the table
      const parsed = SETTINGS[row.key].schema.safeParse(safeJson(row.value));
      if (parsed.success) values[row.key] = parsed.data;
      updatedAt[row.key] = row.updated_at;
    }
    this.snapshot = { values: values as SettingValues, updatedAt, loadedAt: now };
    return this.snapshot;
  }

  /** The settings snapshot as the cache page sees it. */
  cacheHandle(): CacheHandle {
    return {
      pathScoped: false,
      size: () => (this.snapshot ? 1 : 0),
      clear: (scope) => {
        if (scope || !this.snapshot) return 0;
        this.snapshot = undefined;
        return 1;
      },
    };
  }

  async values(): Promise<SettingValues> {
    return (await this.load()).values;
  }

  async get<K extends SettingKey>(key: K): Promise<SettingValues[K]> {
    return (await this.load()).values[key];
  }

  private view(snapshot: Snapshot, key: SettingKey): SettingView {
    const def = SETTINGS[key];
    return {
      key,
      value: snapshot.values[key],
      group: def.group,
      type: def.type,
      default_value: def.defaultValue,
      ...('options' in def && def.options ? { options: def.options } : {}),
      updated_at: snapshot.updatedAt[key] ?? null,
    };
  }

  async list(group?: SettingGroupId): Promise<SettingView[]> {
    const snapshot = await this.load();
    const keys = group === undefined ? (Object.keys(SETTINGS) as SettingKey[]) : settingKeysOfGroup(group);
    return keys.map((key) => this.view(snapshot, key));
  }

  groups(): SettingGroupView[] {
    return GROUP_IDS.map((id) => ({ id, name: SETTING_GROUP_NAMES[id], keys: settingKeysOfGroup(id) }));
  }

  async metadata(key: string): Promise<SettingView> {
    if (!isSettingKey(key)) throw AppError.notFound(`unknown setting: ${key}`);
    return this.view(await this.load(), key);
  }

  /** The extension lists of the name-decided preview kinds (GET /api/public/preview-settings). */
  async previewTypes(): Promise<PreviewTypeSettings> {
    const v = await this.values();
    return {
      preview_ebook_types: v.preview_ebook_types,
      preview_subtitle_types: v.preview_subtitle_types,
      preview_hls_types: v.preview_hls_types,
    };
  }

  async site(): Promise<SiteSettings> {
    const v = await this.values();
    return {
      site_title: v.site_title,
      site_favicon_url: v.site_favicon_url,
      site_footer_markdown: v.site_footer_markdown,
      site_custom_head: v.site_custom_head,
      site_custom_body: v.site_custom_body,
      site_announcement_enabled: v.site_announcement_enabled,
      site_announcement_content: v.site_announcement_content,
    };
  }

  /**
   * Saves some keys of one group, all or nothing. With `validate` false only the value's primitive
   * type is checked (the escape hatch the spec's `?validate=false` asks for).
   */
  async updateGroup(group: SettingGroupId, input: Record<string, unknown>, validate = true): Promise<SettingView[]> {
    const entries = Object.entries(input);
    if (entries.length === 0) throw AppError.validation('no settings given');
    const fields: ValidationErrorData['fields'] = [];
    const rows: { key: string; value: string; group_id: number; updated_at: string }[] = [];
    const now = isoNow(this.deps.clock);
    for (const [key, raw] of entries) {
      if (!isSettingKey(key)) {
        fields.push({ path: key, message: 'unknown setting' });
        continue;
      }
      const def = SETTINGS[key];
      if (def.group !== group) {
        fields.push({
          path: key,
          message: `belongs to group ${def.group} (${SETTING_GROUP_NAMES[def.group]}), not ${group}`,
        });
        continue;
      }
      let value: unknown = raw;
      if (validate) {
        const parsed = def.schema.safeParse(raw);
        if (!parsed.success) {
          fields.push({ path: key, message: parsed.error.issues[0]?.message ?? 'invalid value' });
          continue;
        }
        value = parsed.data;
      } else if (typeof raw !== typeof def.defaultValue) {
        fields.push({ path: key, message: `must be a ${typeof def.defaultValue}` });
        continue;
      }
      rows.push({ key, value: JSON.stringify(value), group_id: group, updated_at: now });
    }
    if (fields.length > 0) {
      throw AppError.validation(`invalid settings: ${fields.map((f) => `${f.path} ${f.message}`).join('; ')}`, fields);
    }
    await this.deps.settings.upsertMany(rows);
    this.snapshot = undefined;
    this.deps.onSaved?.();
    return this.list(group);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
