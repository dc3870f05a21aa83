import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { serverFieldErrors, toApiValue, validateSettings } from './settingsValues';

const fallback = (_key: string, message: string) => message;

describe('settings values', () => {
  it('turns number fields typed as text into numbers', () => {
    expect(toApiValue('max_upload_size', ' 2.5 ')).toBe(2.5);
    expect(toApiValue('max_upload_size', '')).toBeUndefined();
    expect(toApiValue('max_upload_size', 'abc')).toBe('abc');
    expect(toApiValue('site_title', ' x ')).toBe(' x ');
  });

  it('validates with the contract schemas', () => {
    expect(
      validateSettings(
        {
          max_upload_size: '-1',
          max_upload_size_unit: 'TB',
          proxy_sign_expires: '1.5',
          site_favicon_url: 'javascript:alert(1)',
          preview_image_types: 'png,.jpg',
          site_title: 'ok',
        },
        fallback,
      ),
    ).toEqual({
      max_upload_size: 'must be greater than 0',
      max_upload_size_unit: 'must be KB, MB or GB',
      proxy_sign_expires: 'must be whole seconds',
      site_favicon_url: 'the favicon must be an http(s) link or a data:image URL',
      preview_image_types: 'use comma-separated extensions without dots, e.g. "txt,md"',
    });
    expect(
      validateSettings({ site_favicon_url: 'data:image/png;base64,AAAA', max_upload_size: '3' }, fallback),
    ).toEqual({});
  });

  it('reads field errors of a 400 envelope', () => {
    const error = new ApiError('invalid settings', {
      status: 400,
      data: {
        fields: [
          { path: 'site_title', message: 'too long' },
          { path: 'nope', message: 'unknown setting' },
        ],
      },
    });
    expect(serverFieldErrors(error)).toEqual({ site_title: 'too long' });
    expect(serverFieldErrors(new Error('x'))).toEqual({});
  });
});
