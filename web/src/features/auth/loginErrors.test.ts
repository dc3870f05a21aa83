import { describe, expect, it } from 'vitest';
import { adminTokenCheckFailure, apiKeyLoginFailure, passwordLoginFailure } from './loginErrors';

describe('login error texts (spec §6, §8)', () => {
  it('password login', () => {
    expect(passwordLoginFailure({ status: 401, message: 'x' })).toEqual({ key: 'login.errors.invalidCredentials' });
    expect(passwordLoginFailure({ status: 500, message: 'x' })).toEqual({ key: 'login.errors.serverError' });
    expect(passwordLoginFailure({ status: 429, message: 'x' })).toEqual({ key: 'login.errors.tooManyAttempts' });
    expect(passwordLoginFailure({ status: 400, message: 'x' })).toEqual({ key: 'login.errors.loginFailed' });
    expect(passwordLoginFailure({ status: 0, message: 'Network down', transport: 'network' })).toEqual({
      text: 'Network down',
    });
  });
  it('token check after login', () => {
    expect(adminTokenCheckFailure({ status: 401, message: '' })).toEqual({ key: 'login.errors.invalidToken' });
    expect(adminTokenCheckFailure({ status: 404, message: '' })).toEqual({
      key: 'login.errors.adminTokenVerificationFailed',
    });
  });
  it('API key login', () => {
    expect(apiKeyLoginFailure({ status: 401, message: '' })).toEqual({ key: 'login.errors.invalidKey' });
    expect(apiKeyLoginFailure({ status: 403, message: '' })).toEqual({ key: 'login.errors.invalidKey' });
    expect(apiKeyLoginFailure({ status: 503, message: '' })).toEqual({ key: 'login.errors.serverError' });
    expect(apiKeyLoginFailure({ status: 400, message: '' })).toEqual({ key: 'login.errors.apiKeyValidationFailed' });
  });
});
