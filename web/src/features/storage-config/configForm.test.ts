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
});
