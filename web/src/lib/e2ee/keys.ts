import {
  E2EE_KEY_BYTES,
  E2EE_PBKDF2_ITERATIONS,
  E2EE_PBKDF2_MAX_ITERATIONS,
  E2EE_PBKDF2_MIN_ITERATIONS,
  E2EE_SALT_BYTES,
  type E2eeParams,
} from '@clipnest/contract/e2ee';
import { fromBase64Url, toBase64Url } from './base64url';
import { E2eeError } from './errors';

const encoder = new TextEncoder();

/** The derived AES-GCM key (named without the DOM's CryptoKey so the server's tests compile this too). */
export type AesKey = Awaited<ReturnType<typeof crypto.subtle.deriveKey>>;

/** Web Crypto wants ArrayBuffer-backed views; every array of this module is one. */
export function bs(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes as Uint8Array<ArrayBuffer>;
}

/** Random bytes; tests inject a deterministic source to reproduce the published vectors. */
export type RandomSource = (length: number) => Uint8Array;

export const cryptoRandom: RandomSource = (length) => crypto.getRandomValues(new Uint8Array(length));

/** A new link key, as it goes in the fragment. */
export function newLinkKey(random: RandomSource = cryptoRandom): { bytes: Uint8Array; fragment: string } {
  const bytes = random(E2EE_KEY_BYTES);
  return { bytes, fragment: toBase64Url(bytes) };
}

/** The link key from a URL fragment (with or without the leading '#'). */
export function parseLinkKey(fragment: string | null | undefined): Uint8Array {
  const text = (fragment ?? '').replace(/^#/, '').trim();
  if (text === '') throw new E2eeError('missing_key');
  const bytes = fromBase64Url(text);
  if (!bytes || bytes.length !== E2EE_KEY_BYTES) throw new E2eeError('bad_key');
  return bytes;
}

export function decodeSalt(params: Pick<E2eeParams, 'salt'>): Uint8Array {
  const salt = fromBase64Url(params.salt);
  if (!salt || salt.length !== E2EE_SALT_BYTES) throw new E2eeError('unsupported', 'bad salt');
  return salt;
}

/** Checks the parameters a server handed back before any work is done. */
export function checkParams(params: E2eeParams, kind: E2eeParams['kind']): void {
  if (params.v !== 1 || params.alg !== 'AES-256-GCM' || params.kind !== kind) throw new E2eeError('unsupported');
  if (params.kdf === 'PBKDF2-SHA-256') {
    if (
      !Number.isInteger(params.iterations) ||
      params.iterations < E2EE_PBKDF2_MIN_ITERATIONS ||
      params.iterations > E2EE_PBKDF2_MAX_ITERATIONS
    ) {
      throw new E2eeError('unsupported', 'iterations out of range');
    }
  } else if (params.kdf !== 'none') {
    throw new E2eeError('unsupported');
  }
}

/**
 * The AES-256-GCM key: HKDF-SHA-256(IKM = linkKey ‖ P, salt, info) where P is empty without a password and
 * PBKDF2-HMAC-SHA-256(password UTF-8, salt, iterations, 32 bytes) with one.
 */
export async function deriveAesKey(
  linkKey: Uint8Array,
  salt: Uint8Array,
  info: string,
  password: { text: string; iterations: number } | null,
): Promise<AesKey> {
  let ikm = linkKey;
  if (password) {
    const pwKey = await crypto.subtle.importKey('raw', encoder.encode(password.text), 'PBKDF2', false, ['deriveBits']);
    const bits = await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt: bs(salt), iterations: password.iterations },
      pwKey,
      256,
    );
    ikm = new Uint8Array(linkKey.length + 32);
    ikm.set(linkKey, 0);
    ikm.set(new Uint8Array(bits), linkKey.length);
  }
  const base = await crypto.subtle.importKey('raw', bs(ikm), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: bs(salt), info: encoder.encode(info) },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** The parameters every share has (`kind`-specific fields are added by the caller). */
export type BaseParams = Pick<E2eeParams, 'v' | 'alg' | 'kind' | 'kdf' | 'iterations' | 'salt'>;

/**
 * Key material for a new share: a random link key and salt, the password (if any) mixed in, and the derived
 * AES key. `params` are the public parameters to store with the ciphertext.
 */
export async function newShareKey(
  kind: E2eeParams['kind'],
  info: string,
  options: { password?: string; iterations?: number; random?: RandomSource },
): Promise<{ key: AesKey; fragment: string; params: BaseParams; random: RandomSource }> {
  const random = options.random ?? cryptoRandom;
  const link = newLinkKey(random);
  const salt = random(E2EE_SALT_BYTES);
  const iterations = options.password ? (options.iterations ?? E2EE_PBKDF2_ITERATIONS) : 0;
  const key = await deriveAesKey(
    link.bytes,
    salt,
    info,
    options.password ? { text: options.password, iterations } : null,
  );
  return {
    key,
    fragment: link.fragment,
    params: {
      v: 1,
      alg: 'AES-256-GCM',
      kind,
      kdf: options.password ? 'PBKDF2-SHA-256' : 'none',
      iterations,
      salt: toBase64Url(salt),
    },
    random,
  };
}

/**
 * The AES key of an existing share from its parameters, the link's fragment and the password. Throws an
 * {@link E2eeError}: unsupported, missing_key / bad_key, password_required.
 */
export async function shareKey(
  params: E2eeParams,
  kind: E2eeParams['kind'],
  info: string,
  fragment: string | null | undefined,
  password: string | undefined,
): Promise<AesKey> {
  checkParams(params, kind);
  const linkKey = parseLinkKey(fragment);
  const needsPassword = params.kdf !== 'none';
  if (needsPassword && !password) throw new E2eeError('password_required');
  return deriveAesKey(
    linkKey,
    decodeSalt(params),
    info,
    needsPassword ? { text: password!, iterations: params.iterations } : null,
  );
}
