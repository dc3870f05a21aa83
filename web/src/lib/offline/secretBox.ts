// Secrets in queued requests (share passwords, the session credential) are sealed with AES-GCM under a
// non-extractable key kept in IndexedDB: at rest they are ciphertext, and the key cannot be read out of
// the browser. The sealed value is deleted with its queue item once synced.
import { offlineDb } from './db';

const KEY_NAME = 'queue-secrets';

async function boxKey(): Promise<CryptoKey> {
  const db = await offlineDb();
  const found = await db.get('keys', KEY_NAME);
  if (found) return found.value;
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  await db.put('keys', { key: KEY_NAME, value: key });
  return key;
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export async function seal(plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await boxKey(), new TextEncoder().encode(plain));
  return `${toBase64(iv)}.${toBase64(new Uint8Array(cipher))}`;
}

export async function open(sealed: string): Promise<string> {
  const [iv = '', data = ''] = sealed.split('.');
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(iv) }, await boxKey(), fromBase64(data));
  return new TextDecoder().decode(plain);
}
