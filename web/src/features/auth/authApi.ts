import type {
  AdminTokenTestResult,
  ApiKeyTestResult,
  LoginResult,
  PasskeyOptionsResult,
  SecondFactorRequired,
} from '@clipnest/contract';
import { normalizePermissions } from '../../lib/access';
import { api, isApiError } from '../../lib/api';
import { isRecord } from '../../lib/apiErrors';
import { getSession, logout, saveAdminSession, saveApiKeySession } from '../../lib/auth';
import { passkeyAssertion } from '../../lib/passkeys';
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

/** The password was right; the sign-in goes on with a second factor (the methods the server offers). */
export class SecondFactorNeeded extends Error {
  constructor(readonly methods: SecondFactorRequired['methods']) {
    super('second factor needed');
  }
}

export type SecondFactor =
  { totp: string } | { passkey: { challenge_id: string; response: Record<string, unknown> } } | undefined;

/** A passkey's signature over a fresh challenge, for the second step or instead of the password. */
export async function passkeySignature() {
  const start = await api.post<PasskeyOptionsResult>('/admin/passkeys/login/options', undefined, {
    auth: 'none',
    handleAuthErrors: false,
  });
  return passkeyAssertion(start);
}

/**
 * Username + password (and the second factor when two-factor sign-in is on): log in, verify the token, then store
 * it. Throws SecondFactorNeeded when the password was right and a code is needed.
 */
export async function loginWithPassword(username: string, password: string, second?: SecondFactor): Promise<void> {
  let result: LoginResult | undefined;
  try {
    result = await api.post<LoginResult>(
      '/admin/login',
      { username, password, ...second },
      { auth: 'none', handleAuthErrors: false },
    );
  } catch (error) {
    if (isApiError(error) && error.kind === 'totp_required') {
      const methods = isRecord(error.data) && Array.isArray(error.data.methods) ? error.data.methods : ['totp'];
      throw new SecondFactorNeeded(methods as SecondFactorRequired['methods']);
    }
    throw new LoginError(passwordLoginFailure(asFailedCall(error)));
  }
  await keepToken(result);
}

/** A passkey instead of the password (the authenticator checks its user: PIN, fingerprint, face). */
export async function loginWithPasskey(): Promise<void> {
  const assertion = await passkeySignature();
  let result: LoginResult | undefined;
  try {
    result = await api.post<LoginResult>('/admin/passkeys/login', assertion, {
      auth: 'none',
      handleAuthErrors: false,
    });
  } catch (error) {
    throw new LoginError(passwordLoginFailure(asFailedCall(error)));
  }
  await keepToken(result);
}

async function keepToken(result: LoginResult | undefined): Promise<void> {
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
