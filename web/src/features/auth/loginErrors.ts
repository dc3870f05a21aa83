/** Which login error text (spec §6, §8) a failed login step shows, decided on the error's kind. Pure, unit-tested. */
import { statusOfApiErrorKind, type ApiErrorKind } from '@clipnest/contract/errors';

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
  | 'login.errors.tooManyAttempts'
  | 'login.errors.wrongCode';

export type LoginFailure = { key: LoginErrorKey } | { text: string };

/** The minimal view of a thrown ApiError the mapping needs. */
export interface FailedCall {
  status: number;
  message: string;
  /** The error envelope's kind; absent when no envelope came back. */
  kind?: ApiErrorKind | undefined;
  transport?: 'aborted' | 'timeout' | 'network' | undefined;
}

function transportOrServer(call: FailedCall): LoginFailure | null {
  if (call.transport) return { text: call.message };
  // No kind: a reply that is not our envelope (a proxy's error page); only a 5xx says the server failed.
  if (call.kind ? statusOfApiErrorKind(call.kind) >= 500 : call.status >= 500)
    return { key: 'login.errors.serverError' };
  if (call.kind === 'rate_limited') return { key: 'login.errors.tooManyAttempts' };
  return null;
}

/** POST /admin/login failed. */
export function passwordLoginFailure(call: FailedCall): LoginFailure {
  if (call.kind === 'unauthorized') return { key: 'login.errors.invalidCredentials' };
  if (call.kind === 'totp_wrong') return { key: 'login.errors.wrongCode' };
  return transportOrServer(call) ?? { key: 'login.errors.loginFailed' };
}

/** GET /test/admin-token with the fresh token failed. */
export function adminTokenCheckFailure(call: FailedCall): LoginFailure {
  if (call.kind === 'unauthorized') return { key: 'login.errors.invalidToken' };
  return transportOrServer(call) ?? { key: 'login.errors.adminTokenVerificationFailed' };
}

/** GET /test/api-key with the typed key failed. */
export function apiKeyLoginFailure(call: FailedCall): LoginFailure {
  if (call.kind === 'unauthorized' || call.kind === 'forbidden') return { key: 'login.errors.invalidKey' };
  return transportOrServer(call) ?? { key: 'login.errors.apiKeyValidationFailed' };
}
