import { E2EE_IV_BYTES, E2EE_PASTE_AAD, E2EE_PASTE_INFO, type E2eeParams } from '@clipnest/contract/e2ee';
import { fromBase64Url, toBase64Url } from './base64url';
import { E2eeError } from './errors';
import { bs, newShareKey, shareKey, type RandomSource } from './keys';

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
  const { key, fragment, params, random } = await newShareKey('paste', E2EE_PASTE_INFO, options);
  const iv = random(E2EE_IV_BYTES);
  const body = JSON.stringify({ content: plaintext.content, remark: plaintext.remark, type: plaintext.type });
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: bs(iv), additionalData: encoder.encode(E2EE_PASTE_AAD) },
    key,
    encoder.encode(body),
  );
  return {
    content: toBase64Url(new Uint8Array(sealed)),
    encryption: { ...params, iv: toBase64Url(iv) },
    key: fragment,
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
  const key = await shareKey(params, 'paste', E2EE_PASTE_INFO, fragment, password);
  const iv = params.iv === undefined ? undefined : fromBase64Url(params.iv);
  if (!iv || iv.length !== E2EE_IV_BYTES) throw new E2eeError('unsupported', 'bad iv');
  const sealed = fromBase64Url(content.trim());
  if (!sealed) throw new E2eeError('tampered');
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
