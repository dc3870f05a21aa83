/**
 * Passkeys in the browser: the WebAuthn ceremony runs in `@simplewebauthn/browser`, loaded only when a passkey is
 * used (the login and account pages never pay for it at load).
 */
import type { PasskeyOptionsResult } from '@clipnest/contract';

export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** Asks the authenticator to sign the server's challenge; answers what POST …/login takes. */
export async function passkeyAssertion(
  start: PasskeyOptionsResult,
): Promise<{ challenge_id: string; response: Record<string, unknown> }> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const response = await startAuthentication({ optionsJSON: start.options as never });
  return { challenge_id: start.challenge_id, response: response as unknown as Record<string, unknown> };
}

/** Asks the authenticator to make a new credential for the server's options. */
export async function passkeyCreation(start: PasskeyOptionsResult): Promise<Record<string, unknown>> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return (await startRegistration({ optionsJSON: start.options as never })) as unknown as Record<string, unknown>;
}

/** The user closed the browser's passkey prompt (or it timed out): no error to show. */
export function passkeyCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}
