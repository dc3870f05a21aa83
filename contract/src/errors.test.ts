import { describe, expect, it } from 'vitest';
import { API_ERROR_KINDS, apiErrorKind, errorKindForStatus, isApiErrorKind, statusOfApiErrorKind } from './errors.js';

describe('error kinds', () => {
  it('lists every kind once, in lower case, with its status', () => {
    expect(new Set(API_ERROR_KINDS).size).toBe(API_ERROR_KINDS.length);
    for (const kind of API_ERROR_KINDS) expect(kind).toMatch(/^[a-z_]+$/);
    expect(statusOfApiErrorKind('password_wrong')).toBe(401);
    expect(statusOfApiErrorKind('expired')).toBe(410);
    expect(statusOfApiErrorKind('quota_exceeded')).toBe(413);
    expect(statusOfApiErrorKind('rate_limited')).toBe(429);
    expect(apiErrorKind('PASSWORD_REQUIRED')).toBe('password_required');
  });
  it('a bare status maps to its generic kind, never to a finer one', () => {
    expect(errorKindForStatus(401)).toBe('UNAUTHORIZED');
    expect(errorKindForStatus(410)).toBe('GONE');
    expect(errorKindForStatus(413)).toBe('PAYLOAD_TOO_LARGE');
    expect(errorKindForStatus(418)).toBeUndefined();
  });
  it('accepts only listed kinds', () => {
    expect(isApiErrorKind('not_found')).toBe(true);
    expect(isApiErrorKind('NOT_FOUND')).toBe(false);
    expect(isApiErrorKind('too_many_requests')).toBe(false);
    expect(isApiErrorKind(404)).toBe(false);
  });
});
