import { ALL_PERMISSIONS, Permission, ROLE_PRESETS, type ApiKeyView } from '@clipnest/contract';
import { describe, expect, it } from 'vitest';
import {
  applyRole,
  buildCreatePayload,
  buildUpdatePayload,
  initialKeyForm,
  isCustomMix,
  serverFieldErrors,
  togglePermission,
  validateKeyForm,
} from './keyForm';
import { filterKeys, sortKeys } from './keyList';

const existing: ApiKeyView = {
  id: 'k1',
  name: 'ci',
  key: 'cn_abcdefgh',
  key_masked: 'cn_a****efgh',
  permissions: Permission.TEXT,
  role: 'GENERAL',
  basic_path: '/',
  is_guest: 0,
  enabled: true,
  expires_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  last_used: null,
};

describe('key form payloads', () => {
  it('creates with the GENERAL preset and 30 days by default', () => {
    const state = { ...initialKeyForm(), name: ' backup ' };
    expect(buildCreatePayload(state)).toEqual({
      name: 'backup',
      permissions: ROLE_PRESETS.GENERAL,
      role: 'GENERAL',
      basic_path: '/',
      is_guest: 0,
      enabled: true,
      expires_in_days: 30,
    });
  });

  it('maps every expiry preset', () => {
    const state = { ...initialKeyForm(), name: 'x' };
    expect(buildCreatePayload({ ...state, expiry: '1' }).expires_in_days).toBe(1);
    expect(buildCreatePayload({ ...state, expiry: '7' }).expires_in_days).toBe(7);
    expect(buildCreatePayload({ ...state, expiry: 'never' })).toMatchObject({ expires_at: null });
    expect(buildCreatePayload({ ...state, expiry: 'custom', customDays: '45' }).expires_in_days).toBe(45);
  });

  it('sends a custom key and guest flag only when set', () => {
    const state = { ...initialKeyForm(), name: 'x', customKey: 'my-key_123', isGuest: true };
    expect(buildCreatePayload(state)).toMatchObject({ custom_key: 'my-key_123', is_guest: 1 });
    expect(buildCreatePayload({ ...state, customKey: '  ' })).not.toHaveProperty('custom_key');
  });

  it('updates only what changed; "keep" leaves the expiry alone', () => {
    const state = initialKeyForm(existing);
    expect(buildUpdatePayload(state, existing)).toEqual({});
    expect(buildUpdatePayload({ ...state, name: 'ci-2', enabled: false }, existing)).toEqual({
      name: 'ci-2',
      enabled: false,
    });
    expect(buildUpdatePayload({ ...state, expiry: '7' }, existing)).toEqual({ expires_in_days: 7 });
  });

  it('presets set the permission bits; toggling marks a custom mix', () => {
    let state = applyRole(initialKeyForm(), 'FULL');
    expect(state.permissions).toBe(ALL_PERMISSIONS);
    expect(isCustomMix(state)).toBe(false);
    state = togglePermission(state, Permission.MOUNT_DELETE, false);
    expect(state.permissions).toBe(ALL_PERMISSIONS & ~Permission.MOUNT_DELETE);
    expect(isCustomMix(state)).toBe(true);
  });
});

describe('key form validation (spec §5, contract schema)', () => {
  const valid = { ...initialKeyForm(), name: 'ok' };

  it('passes a valid form', () => {
    expect(validateKeyForm(valid, 'create')).toEqual({});
  });
  it('requires a name', () => {
    expect(validateKeyForm({ ...valid, name: '  ' }, 'create').name?.key).toBe('keys.validation.nameRequired');
    expect(validateKeyForm({ ...valid, name: 'x'.repeat(65) }, 'create').name?.key).toBe('keys.validation.nameTooLong');
    expect(validateKeyForm({ ...initialKeyForm(existing), name: '' }, 'edit', existing).name?.key).toBe(
      'keys.validation.nameRequired',
    );
  });
  it('checks the custom key characters and length', () => {
    expect(validateKeyForm({ ...valid, customKey: 'bad key!' }, 'create').customKey?.key).toBe(
      'keys.validation.customKeyPattern',
    );
    expect(validateKeyForm({ ...valid, customKey: 'short' }, 'create').customKey?.key).toBe(
      'keys.validation.customKeyLength',
    );
  });
  it('checks custom days', () => {
    for (const customDays of ['', '0', '1.5', 'abc', '99999']) {
      expect(validateKeyForm({ ...valid, expiry: 'custom', customDays }, 'create').customDays?.key, customDays).toBe(
        'keys.validation.customDaysInvalid',
      );
    }
    expect(validateKeyForm({ ...valid, expiry: 'custom', customDays: '12' }, 'create')).toEqual({});
  });
  it('checks the base path', () => {
    expect(validateKeyForm({ ...valid, basicPath: '/a/../../b' }, 'create').basicPath?.key).toBe(
      'keys.validation.basicPathInvalid',
    );
  });
  it('reads server field errors as texts of the UI, never the server sentence', () => {
    expect(
      serverFieldErrors({
        fields: [
          { path: 'custom_key', message: 'taken' },
          { path: 'name', message: 'dup' },
        ],
      }),
    ).toEqual({
      customKey: { key: 'keys.validation.serverRejected' },
      name: { key: 'keys.validation.serverRejected' },
    });
    expect(serverFieldErrors(undefined)).toEqual({});
  });
  it('words why the server refused a base path (issue 35 point 16)', () => {
    const refused = (reason: string) =>
      serverFieldErrors({
        fields: [{ path: 'basic_path', message: 'basic_path /x is not in the mount tree' }],
        reason,
      });
    expect(refused('no_mount')).toEqual({ basicPath: { key: 'keys.validation.basicPathNoMount' } });
    expect(refused('not_a_folder')).toEqual({ basicPath: { key: 'keys.validation.basicPathNotFolder' } });
  });
});

describe('key list', () => {
  const keys: ApiKeyView[] = [
    { ...existing, id: 'a', name: 'Beta', basic_path: '/team', expires_at: '2030-01-01T00:00:00Z' },
    { ...existing, id: 'b', name: 'alpha', expires_at: null, last_used: '2026-02-01T00:00:00Z' },
    { ...existing, id: 'c', name: 'gamma', expires_at: '2027-01-01T00:00:00Z' },
  ];
  it('filters by name or path', () => {
    expect(filterKeys(keys, 'TEAM').map((k) => k.id)).toEqual(['a']);
    expect(filterKeys(keys, ' alp').map((k) => k.id)).toEqual(['b']);
    expect(filterKeys(keys, '')).toHaveLength(3);
  });
  it('sorts by name and by expiry (never last)', () => {
    expect(sortKeys(keys, { column: 'name', direction: 'asc' }).map((k) => k.id)).toEqual(['b', 'a', 'c']);
    expect(sortKeys(keys, { column: 'expires', direction: 'asc' }).map((k) => k.id)).toEqual(['c', 'a', 'b']);
    expect(sortKeys(keys, { column: 'lastUsed', direction: 'desc' })[0]?.id).toBe('b');
  });
});
