import { describe, expect, it } from 'vitest';
import { adminTokenCheckFailure, apiKeyLoginFailure, passwordLoginFailure } from './loginErrors';

describe('login error texts (spec §6, §8), decided on the kind', () => {
  it('password login', () => {
    expect(passwordLoginFailure({ status: 401, kind: 'totp_wrong', message: 'x' })).toEqual({
      key: 'login.errors.wrongCode',
    });
    expect(passwordLoginFailure({ status: 401, kind: 'unauthorized', message: 'x' })).toEqual({
      key: 'login.errors.invalidCredentials',
    });
    expect(passwordLoginFailure({ status: 500, kind: 'internal', message: 'x' })).toEqual({
      key: 'login.errors.serverError',
    });
    expect(passwordLoginFailure({ status: 503, kind: 'unavailable', message: 'x' })).toEqual({
      key: 'login.errors.serverError',
    });
    expect(passwordLoginFailure({ status: 429, kind: 'rate_limited', message: 'x' })).toEqual({
      key: 'login.errors.tooManyAttempts',
    });
    expect(passwordLoginFailure({ status: 400, kind: 'validation', message: 'x' })).toEqual({
      key: 'login.errors.loginFailed',
    });
    expect(passwordLoginFailure({ status: 0, message: 'Network down', transport: 'network' })).toEqual({
      text: 'Network down',
    });
  });
  it('does not guess from a bare status: no kind, no 401 text (a proxy page is not a wrong password)', () => {
    expect(passwordLoginFailure({ status: 401, message: 'x' })).toEqual({ key: 'login.errors.loginFailed' });
    expect(passwordLoginFailure({ status: 502, message: 'x' })).toEqual({ key: 'login.errors.serverError' });
  });
  it('token check after login', () => {
    expect(adminTokenCheckFailure({ status: 401, kind: 'unauthorized', message: '' })).toEqual({
      key: 'login.errors.invalidToken',
    });
    expect(adminTokenCheckFailure({ status: 404, kind: 'not_found', message: '' })).toEqual({
      key: 'login.errors.adminTokenVerificationFailed',
    });
  });
  it('API key login', () => {
    expect(apiKeyLoginFailure({ status: 401, kind: 'unauthorized', message: '' })).toEqual({
      key: 'login.errors.invalidKey',
    });
    expect(apiKeyLoginFailure({ status: 403, kind: 'forbidden', message: '' })).toEqual({
      key: 'login.errors.invalidKey',
    });
    expect(apiKeyLoginFailure({ status: 503, kind: 'unavailable', message: '' })).toEqual({
      key: 'login.errors.serverError',
    });
    expect(apiKeyLoginFailure({ status: 400, kind: 'validation', message: '' })).toEqual({
      key: 'login.errors.apiKeyValidationFailed',
    });
  });
});
