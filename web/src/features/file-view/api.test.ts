import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { fileErrorKind } from './api';

describe('fileErrorKind', () => {
  const err = (status: number, kind?: ConstructorParameters<typeof ApiError>[1]['kind']) =>
    new ApiError('x', { status, kind });
  it('maps the error kinds as spec §8 maps their statuses', () => {
    expect(fileErrorKind(err(401, 'unauthorized'))).toBe('unauthorized');
    expect(fileErrorKind(err(401, 'password_required'))).toBe('unauthorized');
    expect(fileErrorKind(err(401, 'password_wrong'))).toBe('unauthorized');
    expect(fileErrorKind(err(403, 'forbidden'))).toBe('forbidden');
    expect(fileErrorKind(err(410, 'expired'))).toBe('gone');
    expect(fileErrorKind(err(410, 'gone'))).toBe('gone');
    expect(fileErrorKind(err(404, 'not_found'))).toBe('notFound');
    expect(fileErrorKind(err(500, 'internal'))).toBe('server');
    expect(fileErrorKind(new ApiError('offline', { status: 0, transport: 'network' }))).toBe('network');
    expect(fileErrorKind(new Error('boom'))).toBe('server');
  });
  it('does not guess from a bare status: a reply without a kind is a server error', () => {
    expect(fileErrorKind(err(401))).toBe('server');
    expect(fileErrorKind(err(410))).toBe('server');
    expect(fileErrorKind(err(404))).toBe('server');
  });
});
