import { E2EE_CHUNK_SIZE, E2EE_FILE_MAGIC, E2EE_NONCE_PREFIX_BYTES, E2EE_TAG_BYTES } from '@clipnest/contract/e2ee';
import { type AesKey, bs } from './keys';

/**
 * The record primitives of the CNF1 stream (docs/encryption.md): record i (header = 0, data 1…n) is
 * AES-256-GCM with nonce = prefix ‖ u32be(i) and AAD = "CNF1" ‖ flag (2 header, 0 data, 1 last data record).
 */

export const MAGIC = new TextEncoder().encode(E2EE_FILE_MAGIC);
/** Size of a sealed full data record: 64 KiB of plaintext and its tag. */
export const RECORD_BYTES = E2EE_CHUNK_SIZE + E2EE_TAG_BYTES;

function nonce(prefix: Uint8Array, counter: number): Uint8Array {
  const out = new Uint8Array(E2EE_NONCE_PREFIX_BYTES + 4);
  out.set(prefix, 0);
  new DataView(out.buffer).setUint32(E2EE_NONCE_PREFIX_BYTES, counter, false);
  return out;
}

function aad(flag: number): Uint8Array {
  const out = new Uint8Array(MAGIC.length + 1);
  out.set(MAGIC, 0);
  out[MAGIC.length] = flag;
  return out;
}

/** AES-GCM of record `counter` (encrypt on the way up, decrypt on the way down). */
export async function crypt(
  op: 'encrypt' | 'decrypt',
  key: AesKey,
  prefix: Uint8Array,
  counter: number,
  flag: number,
  data: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const params = { name: 'AES-GCM', iv: bs(nonce(prefix, counter)), additionalData: bs(aad(flag)) };
  return new Uint8Array(await crypto.subtle[op](params, key, bs(data)));
}
