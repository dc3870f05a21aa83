import {
  E2EE_IV_BYTES,
  E2EE_PASTE_AAD,
  E2EE_PASTE_INFO,
  E2EE_PBKDF2_ITERATIONS,
  E2EE_SALT_BYTES,
  type E2eeParams,
} from '@clipnest/contract/e2ee';
import { fromBase64Url, toBase64Url } from './base64url';
import { E2eeError } from './errors';
import {
  bs,
  checkParams,
  cryptoRandom,
  decodeSalt,
  deriveAesKey,
  newLinkKey,
  parseLinkKey,
  type RandomSource,
} from './keys';

const encoder = new TextEncoder();

/** What an encrypted paste hides: its text, remark and type (UTF-8 JSON, keys in this order). */
export interface PastePlaintext {
  content: string;
  remark: string;
  type: 'markdown' | 'text';
}

export interface EncryptedPaste {
  /** base64url(ciphertext ‖ tag): sent as the paste's `content`. */
  content: string;
  /** Sent as the paste's `encryption`. */
  encryption: E2eeParams;
  /** The link key for the URL fragment: `/paste/{slug}#{key}`. */
  key: string;
}

export async function encryptPaste(
  plaintext: PastePlaintext,
  options: { password?: string; iterations?: number; random?: RandomSource } = {},
): Promise<EncryptedPaste> {
  const random = options.random ?? cryptoRandom;
  const link = newLinkKey(random);
  const salt = random(E2EE_SALT_BYTES);
  const iv = random(E2EE_IV_BYTES);
  const iterations = options.password ? (options.iterations ?? E2EE_PBKDF2_ITERATIONS) : 0;
  const key = await deriveAesKey(
    link.bytes,
    salt,
    E2EE_PASTE_INFO,
    options.password ? { text: options.password, iterations } : null,
  );
  const body = JSON.stringify({ content: plaintext.content, remark: plaintext.remark, type: plaintext.type });
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: bs(iv), additionalData: encoder.encode(E2EE_PASTE_AAD) },
    key,
    encoder.encode(body),
  );
  return {
    content: toBase64Url(new Uint8Array(sealed)),
    encryption: {
      v: 1,
      alg: 'AES-256-GCM',
      kind: 'paste',
      kdf: options.password ? 'PBKDF2-SHA-256' : 'none',
      iterations,
      salt: toBase64Url(salt),
      iv: toBase64Url(iv),
    },
    key: link.fragment,
  };
}

/** Whether opening this paste needs a password besides the link key. */
export function pasteNeedsPassword(params: E2eeParams): boolean {
  return params.kdf !== 'none';
}

/**
 * Decrypts a paste. Throws an {@link E2eeError}: missing_key/bad_key (fragment), password_required,
 * wrong_key (authentication failed: wrong key, wrong password or altered ciphertext), unsupported.
 */
export async function decryptPaste(
  content: string,
  params: E2eeParams,
  fragment: string | null | undefined,
  password?: string,
): Promise<PastePlaintext> {
  checkParams(params, 'paste');
  const linkKey = parseLinkKey(fragment);
  const needsPassword = pasteNeedsPassword(params);
  if (needsPassword && !password) throw new E2eeError('password_required');
  const salt = decodeSalt(params);
  const iv = params.iv === undefined ? undefined : fromBase64Url(params.iv);
  if (!iv || iv.length !== E2EE_IV_BYTES) throw new E2eeError('unsupported', 'bad iv');
  const sealed = fromBase64Url(content.trim());
  if (!sealed) throw new E2eeError('tampered');
  const key = await deriveAesKey(
    linkKey,
    salt,
    E2EE_PASTE_INFO,
    needsPassword ? { text: password!, iterations: params.iterations } : null,
  );
  let opened: ArrayBuffer;
  try {
    opened = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bs(iv), additionalData: encoder.encode(E2EE_PASTE_AAD) },
      key,
      bs(sealed),
    );
  } catch {
    throw new E2eeError('wrong_key');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(opened));
  } catch {
    throw new E2eeError('tampered');
  }
  const value = parsed as Partial<PastePlaintext>;
  if (typeof value.content !== 'string') throw new E2eeError('tampered');
  return {
    content: value.content,
    remark: typeof value.remark === 'string' ? value.remark : '',
    type: value.type === 'text' ? 'text' : 'markdown',
  };
}
