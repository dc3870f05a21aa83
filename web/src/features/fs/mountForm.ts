/**
 * The mount form (spec §5 mount rules), checked as the user types: the same rules as the shared
 * `createMountSchema` (contract/src/mounts.ts), with messages from i18n. Pure, unit-tested.
 */
import {
  createMountSchema,
  isReservedMountPath,
  MOUNT_CACHE_TTL_DEFAULT,
  MOUNT_CACHE_TTL_MAX,
  MOUNT_NAME_MAX,
  MOUNT_PATH_MAX,
  MOUNT_PATH_PATTERN,
  RESERVED_MOUNT_PATHS,
  type CreateMount,
  type MountView,
  type UpdateMount,
  type WebdavPolicy,
} from '@clipnest/contract';

export interface MountFormState {
  name: string;
  path: string;
  storage_config_id: string;
  remark: string;
  sort_order: string;
  cache_ttl: string;
  is_active: boolean;
  web_proxy: boolean;
  enable_sign: boolean;
  sign_expires: string;
  webdav_policy: WebdavPolicy;
}

export type MountField = 'name' | 'path' | 'storage_config_id' | 'sort_order' | 'cache_ttl' | 'sign_expires';
export type MountErrors = Partial<Record<MountField, string>>;
export type Translate = (key: string, params?: Record<string, unknown>) => string;

export const MOUNT_FIELD_ORDER: MountField[] = [
  'name',
  'path',
  'storage_config_id',
  'sort_order',
  'cache_ttl',
  'sign_expires',
];

export function initialMountForm(original?: MountView, defaultConfigId = ''): MountFormState {
  return {
    name: original?.name ?? '',
    path: original?.path ?? '/',
    storage_config_id: original?.storage_config_id ?? defaultConfigId,
    remark: original?.remark ?? '',
    sort_order: String(original?.sort_order ?? 0),
    cache_ttl: String(original?.cache_ttl ?? MOUNT_CACHE_TTL_DEFAULT),
    is_active: original?.is_active ?? true,
    web_proxy: original?.web_proxy ?? false,
    enable_sign: original?.enable_sign ?? false,
    sign_expires: original?.sign_expires == null ? '' : String(original.sign_expires),
    webdav_policy: original?.webdav_policy ?? '302_redirect',
  };
}

const isInt = (v: string) => /^-?\d+$/.test(v.trim());

function pathError(raw: string, t: Translate): string | undefined {
  const path = raw.trim();
  if (!path || path === '/') return t('fs.mounts.invalid.pathRequired');
  if (!path.startsWith('/')) return t('fs.mounts.invalid.pathSlash');
  if (path.length > MOUNT_PATH_MAX) return t('fs.mounts.invalid.pathLong', { max: MOUNT_PATH_MAX });
  if (!MOUNT_PATH_PATTERN.test(path)) return t('fs.mounts.invalid.pathPattern');
  if (isReservedMountPath(path))
    return t('fs.mounts.invalid.pathReserved', { list: RESERVED_MOUNT_PATHS.map((p) => `/${p}`).join(', ') });
  return undefined;
}

export function validateMountForm(state: MountFormState, t: Translate): MountErrors {
  const errors: MountErrors = {};
  const name = state.name.trim();
  if (!name) errors.name = t('fs.mounts.invalid.nameRequired');
  else if (name.length > MOUNT_NAME_MAX) errors.name = t('fs.mounts.invalid.nameLong', { max: MOUNT_NAME_MAX });
  const path = pathError(state.path, t);
  if (path) errors.path = path;
  if (!state.storage_config_id) errors.storage_config_id = t('fs.mounts.invalid.storage');
  if (!isInt(state.sort_order) || Math.abs(Number(state.sort_order)) > 1_000_000)
    errors.sort_order = t('fs.mounts.invalid.sortOrder');
  if (!isInt(state.cache_ttl) || Number(state.cache_ttl) < 0 || Number(state.cache_ttl) > MOUNT_CACHE_TTL_MAX)
    errors.cache_ttl = t('fs.mounts.invalid.cacheTtl', { max: MOUNT_CACHE_TTL_MAX });
  if (state.enable_sign && state.sign_expires.trim() !== '') {
    const n = Number(state.sign_expires);
    if (!isInt(state.sign_expires) || n < 1 || n > 30 * 86_400)
      errors.sign_expires = t('fs.mounts.invalid.signExpires');
  }
  // The shared schema is the last word: anything it refuses that the checks above let through still shows.
  if (Object.keys(errors).length === 0) {
    const parsed = createMountSchema.safeParse(toPayload(state));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as MountField;
        if (MOUNT_FIELD_ORDER.includes(field) && !errors[field]) errors[field] = issue.message;
      }
    }
  }
  return errors;
}

function toPayload(state: MountFormState) {
  return {
    name: state.name.trim(),
    path: state.path.trim(),
    storage_config_id: state.storage_config_id,
    remark: state.remark,
    sort_order: Number(state.sort_order),
    cache_ttl: Number(state.cache_ttl),
    is_active: state.is_active,
    web_proxy: state.web_proxy,
    enable_sign: state.enable_sign,
    sign_expires: state.enable_sign && state.sign_expires.trim() !== '' ? Number(state.sign_expires) : null,
    webdav_policy: state.webdav_policy,
  };
}

export function buildMountPayload(state: MountFormState): CreateMount {
  return createMountSchema.parse(toPayload(state));
}

/** Only the fields that changed, so an edit never rewrites what another admin just changed. */
export function buildMountUpdate(state: MountFormState, original: MountView): UpdateMount {
  const next = toPayload(state);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (original[key as keyof MountView] !== value) out[key] = value;
  }
  return out as UpdateMount;
}

/** `path: a mount already uses /x` style server messages → the field they name. */
export function serverMountErrors(serverMessage: string | undefined, text: string): MountErrors {
  if (!serverMessage) return {};
  const match = /^(name|path|storage_config_id|sort_order|cache_ttl|sign_expires)\b[:\s]/.exec(serverMessage);
  // The field the server named gets the localised text of the error (never the server's English sentence).
  return match ? { [match[1] as MountField]: text } : {};
}
