import type { AdminTokenTestResult, ApiKeyTestResult, LoginResult } from '@clipnest/contract';
import { normalizePermissions } from '../../lib/access';
import { api, isApiError } from '../../lib/api';
import { isRecord } from '../../lib/apiErrors';
import { getSession, logout, saveAdminSession, saveApiKeySession } from '../../lib/auth';
import {
  adminTokenCheckFailure,
  apiKeyLoginFailure,
  passwordLoginFailure,
  type FailedCall,
  type LoginFailure,
} from './loginErrors';

export class LoginError extends Error {
  constructor(readonly failure: LoginFailure) {
    super('key' in failure ? failure.key : failure.text);
  }
}

function asFailedCall(error: unknown): FailedCall {
  if (isApiError(error)) {
    return { status: error.status, message: error.message, kind: error.kind, transport: error.transport };
  }
  return { status: 0, message: error instanceof Error ? error.message : String(error) };
}

/** Username + password: log in, verify the token, then store it. */
export async function loginWithPassword(username: string, password: string): Promise<void> {
  let result: LoginResult | undefined;
  try {
    result = await api.post<LoginResult>(
      '/admin/login',
      { username, password },
      { auth: 'none', handleAuthErrors: false },
    );
  } catch (error) {
    throw new LoginError(passwordLoginFailure(asFailedCall(error)));
  }
  if (!isRecord(result)) throw new LoginError({ key: 'login.errors.invalidResponse' });
  if (typeof result.token !== 'string' || !result.token) throw new LoginError({ key: 'login.errors.missingToken' });
  try {
    await api.get<AdminTokenTestResult>('/test/admin-token', {
      auth: { bearer: result.token },
      handleAuthErrors: false,
    });
  } catch (error) {
    throw new LoginError(adminTokenCheckFailure(asFailedCall(error)));
  }
  saveAdminSession(result.token);
}

/** API key: verify it and read its permissions, then store it. Returns the permission mask. */
export async function loginWithApiKey(apiKey: string): Promise<number> {
  let result: ApiKeyTestResult | undefined;
  try {
    result = await api.get<ApiKeyTestResult>('/test/api-key', { auth: { apiKey }, handleAuthErrors: false });
  } catch (error) {
    throw new LoginError(apiKeyLoginFailure(asFailedCall(error)));
  }
  if (!isRecord(result)) throw new LoginError({ key: 'login.errors.invalidResponse' });
  const permissions = normalizePermissions(result.permissions);
  if (permissions === null) throw new LoginError({ key: 'login.errors.noPermissionInfo' });
  if (permissions === 0) throw new LoginError({ key: 'login.errors.insufficientPermissions' });
  saveApiKeySession(apiKey, permissions, isRecord(result.key_info) ? result.key_info : null);
  return permissions;
}

/** Ends the session; an admin token is also revoked on the server (best effort). */
export async function signOut(): Promise<void> {
  const session = getSession();
  if (session.type === 'admin') {
    try {
      await api.post('/admin/logout', undefined, { handleAuthErrors: false, timeoutMs: 5000 });
    } catch {
      // Already invalid or server unreachable: clearing locally is what matters.
    }
  }
  logout('user');
}
