/**
 * The API key form as plain data: defaults, payloads and validation with the contract's schemas
 * (spec §5: name required; custom key letters, digits, _ and -; custom expiry in whole days).
 */
import {
  API_KEY_NAME_MAX,
  createApiKeySchema,
  CUSTOM_KEY_MAX,
  CUSTOM_KEY_MIN,
  CUSTOM_KEY_PATTERN,
  KEY_CUSTOM_DAYS_MAX,
  KEY_ROLES,
  Permission,
  ROLE_PRESETS,
  updateApiKeySchema,
  type ApiKeyView,
  type CreateApiKeyInput,
  type KeyRole,
  type PermissionName,
  type UpdateApiKeyInput,
} from '@clipnest/contract';

export type ExpiryChoice = 'keep' | '1' | '7' | '30' | 'never' | 'custom';
export const EXPIRY_PRESETS = ['1', '7', '30', 'never', 'custom'] as const satisfies readonly ExpiryChoice[];

export interface KeyFormState {
  name: string;
  role: KeyRole;
  permissions: number;
  expiry: ExpiryChoice;
  customDays: string;
  customKey: string;
  basicPath: string;
  isGuest: boolean;
  enabled: boolean;
}

export type KeyFormField = 'name' | 'permissions' | 'customKey' | 'basicPath' | 'customDays';

export type KeyValidationKey =
  | 'keys.validation.nameRequired'
  | 'keys.validation.nameTooLong'
  | 'keys.validation.customKeyPattern'
  | 'keys.validation.customKeyLength'
  | 'keys.validation.customDaysInvalid'
  | 'keys.validation.basicPathInvalid'
  | 'keys.validation.basicPathNoMount'
  | 'keys.validation.basicPathNotFolder'
  | 'keys.validation.serverRejected'
  | 'keys.validation.permissionsInvalid';

export interface KeyValidationMessage {
  key: KeyValidationKey;
  params?: Record<string, number>;
}

export type KeyFormErrors = Partial<Record<KeyFormField, KeyValidationMessage>>;

/** Permission checkboxes, grouped as the form shows them. */
export const PERMISSION_GROUPS: { id: 'shares' | 'mounts' | 'webdav'; permissions: PermissionName[] }[] = [
  { id: 'shares', permissions: ['TEXT', 'FILE_SHARE'] },
  { id: 'mounts', permissions: ['MOUNT_VIEW', 'MOUNT_UPLOAD', 'MOUNT_COPY', 'MOUNT_RENAME', 'MOUNT_DELETE'] },
  { id: 'webdav', permissions: ['WEBDAV_READ', 'WEBDAV_MANAGE'] },
];

export function groupMask(permissions: PermissionName[]): number {
  return permissions.reduce((mask, name) => mask | Permission[name], 0);
}

export function isKeyRole(value: unknown): value is KeyRole {
  return typeof value === 'string' && (KEY_ROLES as readonly string[]).includes(value);
}

export function initialKeyForm(key?: ApiKeyView): KeyFormState {
  if (!key) {
    return {
      name: '',
      role: 'GENERAL',
      permissions: ROLE_PRESETS.GENERAL,
      expiry: '30',
      customDays: '90',
      customKey: '',
      basicPath: '/',
      isGuest: false,
      enabled: true,
    };
  }
  return {
    name: key.name,
    role: isKeyRole(key.role) ? key.role : 'GENERAL',
    permissions: key.permissions,
    expiry: 'keep',
    customDays: '30',
    customKey: '',
    basicPath: key.basic_path || '/',
    isGuest: key.is_guest === 1,
    enabled: key.enabled,
  };
}

/** Picking a preset sets its role and its permission bits. */
export function applyRole(state: KeyFormState, role: KeyRole): KeyFormState {
  return { ...state, role, permissions: ROLE_PRESETS[role] };
}

export function togglePermission(state: KeyFormState, bits: number, on: boolean): KeyFormState {
  return { ...state, permissions: on ? state.permissions | bits : state.permissions & ~bits };
}

/** True when the bits differ from the chosen preset. */
export function isCustomMix(state: KeyFormState): boolean {
  return state.permissions !== ROLE_PRESETS[state.role];
}

function expiryFields(state: KeyFormState): Pick<CreateApiKeyInput, 'expires_at' | 'expires_in_days'> {
  switch (state.expiry) {
    case 'keep':
      return {};
    case 'never':
      return { expires_at: null };
    case 'custom': {
      const text = state.customDays.trim();
      return { expires_in_days: text === '' ? Number.NaN : Number(text) };
    }
    default:
      return { expires_in_days: Number(state.expiry) };
  }
}

export function buildCreatePayload(state: KeyFormState): CreateApiKeyInput {
  const payload: CreateApiKeyInput = {
    name: state.name.trim(),
    permissions: state.permissions,
    role: state.role,
    basic_path: state.basicPath.trim() || '/',
    is_guest: state.isGuest ? 1 : 0,
    enabled: state.enabled,
    ...expiryFields(state),
  };
  const customKey = state.customKey.trim();
  if (customKey) payload.custom_key = customKey;
  return payload;
}

/** Only what changed; an empty object means there is nothing to save. */
export function buildUpdatePayload(state: KeyFormState, original: ApiKeyView): UpdateApiKeyInput {
  const payload: UpdateApiKeyInput = { ...expiryFields(state) };
  const name = state.name.trim();
  if (name !== original.name) payload.name = name;
  if (state.permissions !== original.permissions) payload.permissions = state.permissions;
  if (state.role !== original.role) payload.role = state.role;
  const basicPath = state.basicPath.trim() || '/';
  if (basicPath !== original.basic_path) payload.basic_path = basicPath;
  const isGuest = state.isGuest ? 1 : 0;
  if (isGuest !== original.is_guest) payload.is_guest = isGuest;
  if (state.enabled !== original.enabled) payload.enabled = state.enabled;
  return payload;
}

const FIELD_BY_PATH: Record<string, KeyFormField> = {
  name: 'name',
  permissions: 'permissions',
  custom_key: 'customKey',
  basic_path: 'basicPath',
  expires_in_days: 'customDays',
};

function messageFor(field: KeyFormField, state: KeyFormState): KeyValidationMessage {
  switch (field) {
    case 'name':
      return state.name.trim() === ''
        ? { key: 'keys.validation.nameRequired' }
        : { key: 'keys.validation.nameTooLong', params: { max: API_KEY_NAME_MAX } };
    case 'customKey':
      return CUSTOM_KEY_PATTERN.test(state.customKey.trim())
        ? { key: 'keys.validation.customKeyLength', params: { min: CUSTOM_KEY_MIN, max: CUSTOM_KEY_MAX } }
        : { key: 'keys.validation.customKeyPattern' };
    case 'customDays':
      return { key: 'keys.validation.customDaysInvalid', params: { max: KEY_CUSTOM_DAYS_MAX } };
    case 'basicPath':
      return { key: 'keys.validation.basicPathInvalid' };
    case 'permissions':
      return { key: 'keys.validation.permissionsInvalid' };
  }
}

/** Validates with the contract schema the server uses; errors keyed by form field. */
export function validateKeyForm(state: KeyFormState, mode: 'create' | 'edit', original?: ApiKeyView): KeyFormErrors {
  const result =
    mode === 'create'
      ? createApiKeySchema.safeParse(buildCreatePayload(state))
      : updateApiKeySchema.safeParse(original ? buildUpdatePayload(state, original) : {});
  const errors: KeyFormErrors = {};
  // The edit payload leaves out an unchanged name, so an emptied name must be caught here.
  if (mode === 'edit' && state.name.trim() === '') errors.name = messageFor('name', state);
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = FIELD_BY_PATH[String(issue.path[0] ?? '')];
    if (field && !errors[field]) errors[field] = messageFor(field, state);
  }
  return errors;
}

/** Why the server refused a basic_path (data.reason of its 400, server/src/services/fs/treeFolders.ts). */
const BASIC_PATH_REASONS: Record<string, KeyValidationKey> = {
  no_mount: 'keys.validation.basicPathNoMount',
  not_a_folder: 'keys.validation.basicPathNotFolder',
};

/**
 * Maps server validation fields (400 data.fields) onto the form, as texts of the UI (the server's sentences
 * are English): the reason a basic_path was refused, else a generic "not accepted".
 */
export function serverFieldErrors(data: unknown): KeyFormErrors {
  const out: KeyFormErrors = {};
  if (typeof data !== 'object' || data === null || !Array.isArray((data as { fields?: unknown }).fields)) return out;
  const reason = (data as { reason?: unknown }).reason;
  for (const item of (data as { fields: unknown[] }).fields) {
    if (typeof item !== 'object' || item === null) continue;
    const { path } = item as { path?: unknown };
    const field = FIELD_BY_PATH[String(path ?? '').split('.')[0] ?? ''];
    if (!field || out[field]) continue;
    const specific = field === 'basicPath' && typeof reason === 'string' ? BASIC_PATH_REASONS[reason] : undefined;
    out[field] = { key: specific ?? 'keys.validation.serverRejected' };
  }
  return out;
}
