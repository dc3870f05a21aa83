/**
 * Revalidates the stored credentials against the server (spec §4): when never validated in this
 * page view or older than 5 minutes. A 401 ends the session through the API client (spec §8).
 */
import type { AdminTokenTestResult, ApiKeyTestResult } from '@clipnest/contract';
import { normalizePermissions } from './access';
import { api, isApiError } from './api';
import { getLastValidatedAt, getSession, logout, markValidated, needsRevalidation, updateApiKeyDetails } from './auth';
import i18n, { loadTextAreas } from './i18n';

export type ValidationOutcome = 'valid' | 'invalid' | 'unreachable' | 'skipped';

let inFlight: Promise<ValidationOutcome> | null = null;
let attempted = false;

/** True once a check finished in this page view, whatever its outcome. */
export function validationAttempted(): boolean {
  return attempted;
}

export function sessionNeedsCheck(now = Date.now()): boolean {
  return getSession().type !== 'none' && needsRevalidation(getLastValidatedAt(), now);
}

async function validateNow(): Promise<ValidationOutcome> {
  const session = getSession();
  try {
    if (session.type === 'admin') {
      await api.get<AdminTokenTestResult>('/test/admin-token');
      markValidated();
      return 'valid';
    }
    if (session.type === 'apikey') {
      const result = await api.get<ApiKeyTestResult>('/test/api-key');
      const permissions = normalizePermissions(result?.permissions);
      if (permissions === null) {
        await loadTextAreas(['login']);
        logout('api-key-invalid', i18n.t('login.errors.noPermissionInfo'));
        return 'invalid';
      }
      markValidated();
      updateApiKeyDetails(permissions, result.key_info ?? null);
      return 'valid';
    }
    return 'skipped';
  } catch (error) {
    if (isApiError(error) && error.loggedOut) return 'invalid';
    // The server is unreachable or failing: keep the session, try again on the next check.
    return 'unreachable';
  }
}

/** Validates if due; concurrent callers share one request. */
export function revalidateSession(force = false): Promise<ValidationOutcome> {
  if (!force && !sessionNeedsCheck()) return Promise.resolve('skipped');
  inFlight ??= validateNow().finally(() => {
    attempted = true;
    inFlight = null;
  });
  return inFlight;
}
