/**
 * What the admin's sign-in and second factors report as they happen: the audit log (and nothing else, for now)
 * attaches here. Events never carry a secret (no password, code, token or key).
 */
export type AuthEvent =
  | {
      type: 'auth.login.succeeded';
      adminId: string;
      username: string;
      client: string;
      method: 'password' | 'totp' | 'recovery_code' | 'passkey';
      sessionId: string;
    }
  | {
      type: 'auth.login.failed';
      username: string;
      client: string;
      reason: 'password' | 'second_factor_missing' | 'second_factor_wrong' | 'passkey_wrong';
    }
  | {
      type: 'auth.second_factor.changed';
      adminId: string;
      client: string;
      change:
        | 'totp_enabled'
        | 'totp_disabled'
        | 'recovery_codes_renewed'
        | 'passkey_added'
        | 'passkey_renamed'
        | 'passkey_removed';
      /** The passkey concerned. */
      target?: string;
    }
  | {
      type: 'auth.session.ended';
      adminId: string;
      client: string;
      sessionIds: string[];
      reason: 'revoked' | 'password_changed';
    };

export type AuthEventSink = (event: AuthEvent) => void;

/** The sink when nothing listens. */
export const noAuthEvents: AuthEventSink = () => {};
