import { describe, expect, it } from 'vitest';
import { buildMountUpdate, initialMountForm, serverMountErrors, validateMountForm } from './mountForm';

const t = (key: string) => key;
const valid = { ...initialMountForm(undefined, 'cfg1'), name: 'Team', path: '/team' };

describe('mount form', () => {
  it('accepts a valid mount', () => {
    expect(validateMountForm(valid, t)).toEqual({});
  });

  it('names the spec §5 path rules as the user types', () => {
    expect(validateMountForm({ ...valid, path: '/' }, t).path).toBe('fs.mounts.invalid.pathRequired');
    expect(validateMountForm({ ...valid, path: 'team' }, t).path).toBe('fs.mounts.invalid.pathSlash');
    expect(validateMountForm({ ...valid, path: '/a//b' }, t).path).toBe('fs.mounts.invalid.pathPattern');
    expect(validateMountForm({ ...valid, path: '/a b' }, t).path).toBe('fs.mounts.invalid.pathPattern');
    expect(validateMountForm({ ...valid, path: '/API/x' }, t).path).toBe('fs.mounts.invalid.pathReserved');
    expect(validateMountForm({ ...valid, path: '/团队_1-x' }, t)).toEqual({});
  });

  it('checks name, storage, sort order, cache ttl and sign expiry', () => {
    const errors = validateMountForm(
      {
        ...valid,
        name: 'x'.repeat(51),
        storage_config_id: '',
        sort_order: '1.5',
        cache_ttl: '86401',
        enable_sign: true,
        sign_expires: '0',
      },
      t,
    );
    expect(Object.keys(errors).sort()).toEqual(
      ['cache_ttl', 'name', 'sign_expires', 'sort_order', 'storage_config_id'].sort(),
    );
  });

  it('sends only changed fields on edit', () => {
    const original = {
      id: 'm1',
      name: 'Team',
      path: '/team',
      storage_type: 'local',
      storage_config_id: 'cfg1',
      remark: '',
      sort_order: 0,
      cache_ttl: 300,
      is_active: true,
      web_proxy: false,
      enable_sign: false,
      sign_expires: null,
      webdav_policy: '302_redirect' as const,
      created_by: 'system',
      created_at: '',
      updated_at: '',
    };
    expect(buildMountUpdate({ ...initialMountForm(original), is_active: false, sort_order: '3' }, original)).toEqual({
      is_active: false,
      sort_order: 3,
    });
  });

  it('maps server field messages', () => {
    expect(serverMountErrors('path: a mount already uses /x', '与已有内容冲突')).toEqual({ path: '与已有内容冲突' });
    expect(serverMountErrors('something else', 'x')).toEqual({});
  });
});
