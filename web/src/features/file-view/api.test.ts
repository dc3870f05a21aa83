import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { fileErrorKind } from './api';

describe('fileErrorKind', () => {
  const err = (status: number) => new ApiError('x', { status });
  it('maps statuses as spec §8', () => {
    expect(fileErrorKind(err(401))).toBe('unauthorized');
    expect(fileErrorKind(err(403))).toBe('forbidden');
    expect(fileErrorKind(err(410))).toBe('gone');
    expect(fileErrorKind(err(404))).toBe('notFound');
    expect(fileErrorKind(err(500))).toBe('server');
    expect(fileErrorKind(err(0))).toBe('network');
    expect(fileErrorKind(new Error('boom'))).toBe('server');
  });
});
