/** Which login error text (spec §6, §8) a failed login step shows. Pure, unit-tested. */

export type LoginErrorKey =
  | 'login.errors.invalidToken'
  | 'login.errors.invalidCredentials'
  | 'login.errors.loginFailed'
  | 'login.errors.invalidResponse'
  | 'login.errors.serverError'
  | 'login.errors.apiKeyValidationFailed'
  | 'login.errors.noPermissionInfo'
  | 'login.errors.invalidKey'
  | 'login.errors.insufficientPermissions'
  | 'login.errors.missingToken'
  | 'login.errors.adminTokenVerificationFailed'
  | 'login.errors.apiKeyVerificationFailed'
  | 'login.errors.tooManyAttempts';

export type LoginFailure = { key: LoginErrorKey } | { text: string };

/** The minimal view of a thrown ApiError the mapping needs. */
export interface FailedCall {
  status: number;
  message: string;
  transport?: 'aborted' | 'timeout' | 'network' | undefined;
}

function transportOrServer(call: FailedCall): LoginFailure | null {
  if (call.transport) return { text: call.message };
  if (call.status >= 500) return { key: 'login.errors.serverError' };
  if (call.status === 429) return { key: 'login.errors.tooManyAttempts' };
  return null;
}

/** POST /admin/login failed. */
export function passwordLoginFailure(call: FailedCall): LoginFailure {
  if (call.status === 401) return { key: 'login.errors.invalidCredentials' };
  return transportOrServer(call) ?? { key: 'login.errors.loginFailed' };
}

/** GET /test/admin-token with the fresh token failed. */
export function adminTokenCheckFailure(call: FailedCall): LoginFailure {
  if (call.status === 401) return { key: 'login.errors.invalidToken' };
  return transportOrServer(call) ?? { key: 'login.errors.adminTokenVerificationFailed' };
}

/** GET /test/api-key with the typed key failed. */
export function apiKeyLoginFailure(call: FailedCall): LoginFailure {
  if (call.status === 401 || call.status === 403) return { key: 'login.errors.invalidKey' };
  return transportOrServer(call) ?? { key: 'login.errors.apiKeyValidationFailed' };
}
