import { describe, expect, it } from 'vitest';
import {
  applyProvider,
  applyRegion,
  buildCreatePayload,
  buildUpdatePayload,
  initialConfigForm,
  serverConfigErrors,
  validateConfigForm,
} from './configForm';

const t = (key: string) => key;

describe('storage config form', () => {
  it('prefills endpoint patterns from provider presets and follows the region', () => {
    let s = initialConfigForm();
    expect(s.endpoint).toBe('https://s3.us-east-1.amazonaws.com');
    s = applyProvider(s, 'backblaze_b2');
    expect(s.endpoint).toBe('https://s3.us-west-004.backblazeb2.com');
    expect(s.path_style).toBe(true);
    s = applyRegion(s, 'eu-central-003');
    expect(s.endpoint).toBe('https://s3.eu-central-003.backblazeb2.com');
    s = applyProvider(s, 'aliyun_oss');
    expect(s.endpoint).toBe('https://oss-cn-hangzhou.aliyuncs.com');
    s = applyProvider(s, 'cloudflare_r2');
    expect(s.endpoint).toBe('https://<account_id>.r2.cloudflarestorage.com');
    expect(validateConfigForm(s, false, t).endpoint).toBe('files.storage.errors.endpointPlaceholder');
    s = applyProvider(s, 'minio');
    expect(s.endpoint).toBe('http://127.0.0.1:9000');
  });

  it('keeps an endpoint the user typed when the provider or region changes', () => {
    let s = { ...initialConfigForm(), endpoint: 'https://s3.example.com', endpointAuto: false };
    s = applyRegion(applyProvider(s, 'minio'), 'x');
    expect(s.endpoint).toBe('https://s3.example.com');
  });

  it('validates required fields and ranges', () => {
    const errors = validateConfigForm({ ...initialConfigForm(), signature_expires_in: '5', capacity: '-1' }, false, t);
    expect(Object.keys(errors).sort()).toEqual(
      ['access_key_id', 'bucket', 'capacity', 'name', 'secret_access_key', 'signature_expires_in'].sort(),
    );
    expect(validateConfigForm({ ...initialConfigForm(), name: 'a', bucket: 'b' }, true, t)).toEqual({});
  });

  it('builds payloads; an empty secret on update keeps the stored one', () => {
    const s = {
      ...initialConfigForm(),
      name: ' n ',
      bucket: 'b',
      access_key_id: 'k',
      secret_access_key: 's',
      capacity: '2',
    };
    const create = buildCreatePayload(s);
    expect(create).toMatchObject({ name: 'n', total_capacity: 2 * 1024 ** 3, storage_type: 's3' });
    const update = buildUpdatePayload({ ...s, secret_access_key: '' });
    expect(update).not.toHaveProperty('secret_access_key');
    expect(update).not.toHaveProperty('storage_type');
    expect(buildUpdatePayload(s)).toHaveProperty('secret_access_key', 's');
  });

  it('maps server field errors', () => {
    expect(serverConfigErrors({ fields: [{ path: 'total_capacity', message: 'm' }] })).toEqual({ capacity: 'm' });
    expect(serverConfigErrors(null)).toEqual({});
  });

  it('a local config: root folder checked by the shared schema, only its own fields sent', () => {
    const s = { ...initialConfigForm(undefined, 'local'), name: 'disk', root_path: 'relative/dir' };
    expect(Object.keys(validateConfigForm(s, false, t))).toEqual(['root_path']);
    expect(validateConfigForm({ ...s, root_path: '/srv/a/../b' }, false, t).root_path).toBe(
      'files.storage.errors.rootPath',
    );
    expect(validateConfigForm({ ...s, root_path: '' }, false, t).root_path).toBe('files.storage.errors.rootRequired');
    const ok = { ...s, root_path: ' /srv/share ' };
    expect(validateConfigForm(ok, false, t)).toEqual({});
    expect(buildCreatePayload(ok)).toEqual({
      storage_type: 'local',
      name: 'disk',
      root_path: '/srv/share',
      default_folder: '',
      total_capacity: null,
      is_default: false,
    });
  });

  it('editing a local config sends its root only when it changed, and never for the built-in one', () => {
    const original = {
      storage_type: 'local',
      root_path: '/srv/share',
      is_builtin: false,
      name: 'disk',
      total_capacity: null,
      default_folder: '',
      signature_expires_in: 3600,
      path_style: false,
    } as unknown as Parameters<typeof initialConfigForm>[0];
    const s = initialConfigForm(original);
    expect(s.storage_type).toBe('local');
    expect(buildUpdatePayload(s, original)).not.toHaveProperty('root_path');
    expect(buildUpdatePayload({ ...s, root_path: '/srv/other' }, original)).toHaveProperty('root_path', '/srv/other');
    const builtin = { ...original!, is_builtin: true };
    expect(buildUpdatePayload({ ...s, root_path: '/srv/other' }, builtin)).not.toHaveProperty('root_path');
    expect(buildUpdatePayload(s, original)).not.toHaveProperty('bucket');
  });

  it('a webdav config: URL checked inline, only its own fields sent, a blank password kept on edit', () => {
    const blank = { ...initialConfigForm(undefined, 'webdav'), name: 'NAS' };
    expect(validateConfigForm(blank, false, t)).toEqual({ endpoint_url: 'files.storage.errors.endpointUrlRequired' });
    const creds = { ...blank, endpoint_url: 'https://me:pw@nas.lan/dav' };
    expect(validateConfigForm(creds, false, t)).toEqual({
      endpoint_url: 'files.storage.errors.endpointUrlCredentials',
    });
    const ok = { ...blank, endpoint_url: ' https://nas.lan/dav ', username: 'me', password: 'pw', tls_insecure: true };
    expect(validateConfigForm(ok, false, t)).toEqual({});
    expect(buildCreatePayload(ok)).toEqual({
      storage_type: 'webdav',
      name: 'NAS',
      endpoint_url: 'https://nas.lan/dav',
      username: 'me',
      password: 'pw',
      tls_insecure: true,
      default_folder: '',
      total_capacity: null,
      is_default: false,
    });
    const update = buildUpdatePayload({ ...ok, password: '' });
    expect(update).not.toHaveProperty('password');
    expect(update).not.toHaveProperty('bucket');
    expect(update).toMatchObject({ endpoint_url: 'https://nas.lan/dav', username: 'me', tls_insecure: true });
  });

  it('an rclone config: the section read as the server reads it, sent whole, blank on edit keeps it', () => {
    const blank = { ...initialConfigForm(undefined, 'rclone'), name: 'Cloud' };
    expect(validateConfigForm(blank, false, t)).toEqual({ rclone_config: 'files.storage.errors.rclone.required' });
    expect(validateConfigForm(blank, true, t)).toEqual({});
    const local = { ...blank, rclone_config: '[disk]\ntype = local\n' };
    expect(validateConfigForm(local, false, t)).toEqual({ rclone_config: 'files.storage.errors.rclone.refusedType' });
    const two = { ...blank, rclone_config: '[a]\ntype = drive\n[b]\ntype = drive\n' };
    expect(validateConfigForm(two, false, t)).toEqual({ rclone_config: 'files.storage.errors.rclone.sections' });
    const section = '[od]\ntype = onedrive\ntoken = {"access_token":"x"}\n';
    const ok = { ...blank, rclone_config: section, default_folder: 'shares' };
    expect(validateConfigForm(ok, false, t)).toEqual({});
    expect(buildCreatePayload(ok)).toEqual({
      storage_type: 'rclone',
      name: 'Cloud',
      rclone_config: section,
      default_folder: 'shares',
      total_capacity: null,
      is_default: false,
    });
    const update = buildUpdatePayload({ ...ok, rclone_config: '  ' });
    expect(update).not.toHaveProperty('rclone_config');
    expect(update).not.toHaveProperty('endpoint_url');
    expect(buildUpdatePayload(ok)).toMatchObject({ rclone_config: section });
  });
});
