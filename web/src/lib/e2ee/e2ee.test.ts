import { describe, expect, it } from 'vitest';
import { E2EE_CHUNK_SIZE, E2EE_TAG_BYTES } from '@clipnest/contract/e2ee';
import { createFileDecryptor, encryptFile, resumeFileEncryption } from './file';
import { isE2eeError } from './errors';
import { parseLinkKey } from './keys';
import { decryptPaste, encryptPaste } from './paste';
import { refFile, refPaste, sha256Hex } from './reference.test-helper';
import { sealRange } from './seal';
import { FILE_VECTOR, PASTE_VECTOR, seq, vectorRandom } from './vectors';

// The values published in docs/encryption.md ("Test vectors").
const KEY = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';
const PASTE_CT =
  'V3ThQfzR21-F-A2-gwfYBjxbufchMWYhssUh5T21hllhHo41TGOaGWtXSvueNJ1W-ylWPTfnP7vmB5EqAO_YqnJlJ1cIl4TC4m7h_ZpxW37PBrHjrpuxMY_SrC6X2iL9803NyaQXLF8m_Q';
const PASTE_PW_CT =
  'JcowpZNn1QAIA9__tbYzqKcBPyiCKTbeRjbEjQWajGe68M7iUjuGH_o5lB8e_5-s4OgsEsPJvdPv5htGIYUwhNSSDdyBmL5f2BSYLE8eL2t81jdmlmFuNN9YAdOmDQcRqHUKH2vFyekYuA';
const PASTE_PARAMS = {
  v: 1,
  alg: 'AES-256-GCM',
  kind: 'paste',
  kdf: 'none',
  iterations: 0,
  salt: 'oKGio6SlpqeoqaqrrK2urw',
  iv: 'sLGys7S1tre4ubq7',
} as const;
const FILE_PARAMS = {
  v: 1,
  alg: 'AES-256-GCM',
  kind: 'file',
  kdf: 'none',
  iterations: 0,
  salt: 'oKGio6SlpqeoqaqrrK2urw',
  chunk_size: 65536,
} as const;
const SMALL_FILE_HEX =
  '434e4631b0b1b2b3b4b5b6b700000042e3b07d5737945713ebc86d95db82222125c6816ce9a8da1894a028c01b121bd4606ce125799d31db16fd4b9fddb88add281e4bca8566e92e9d2e92ea252f5130e3ce576927aa43542208a03f8bf465bce4191fcfa4a02859e9ad26c1e406db';
const MULTI_FILE_SHA256 = 'a3494ec6ca433f9cee7b52eb8444d62e09a7f57afb882f5d2587ec7c9114741c';
const MULTI_FILE_SIZE = 70_133;

const refInputs = { key: Buffer.from(seq(0, 32)), salt: Buffer.from(seq(0xa0, 16)) };
const pasteJson = JSON.stringify(PASTE_VECTOR.plaintext);

async function encryptedBytes(data: Uint8Array, meta: { name: string; type: string }, password?: string) {
  const enc = await encryptFile(new Blob([data as Uint8Array<ArrayBuffer>]), meta, {
    random: vectorRandom(),
    ...(password ? { password, iterations: 100_000 } : {}),
  });
  return { bytes: Buffer.from(await enc.read(0, enc.size)), enc };
}

async function decryptAll(bytes: Uint8Array, params = FILE_PARAMS as never, key: string = KEY, chunk = 10_000) {
  const { stream, header } = await createFileDecryptor(params, key);
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += chunk) controller.enqueue(bytes.slice(at, at + chunk));
      controller.close();
    },
  });
  const out: Uint8Array[] = [];
  const reader = source.pipeThrough(stream).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    out.push(value);
  }
  return { data: Buffer.concat(out), header: await header };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return isE2eeError(error) ? error.code : `other: ${String(error)}`;
  }
}

describe('e2ee paste format', () => {
  it('matches the published vector (no password), and the independent node:crypto implementation', async () => {
    const enc = await encryptPaste(PASTE_VECTOR.plaintext, { random: vectorRandom() });
    expect(enc.key).toBe(KEY);
    expect(enc.encryption).toEqual(PASTE_PARAMS);
    expect(enc.content).toBe(PASTE_CT);
    expect(refPaste({ ...refInputs, iv: Buffer.from(seq(0xb0, 12)) }, pasteJson)).toBe(PASTE_CT);
    expect(await decryptPaste(PASTE_CT, PASTE_PARAMS, `#${KEY}`)).toEqual(PASTE_VECTOR.plaintext);
  });

  it('matches the published vector with a password (PBKDF2-SHA-256, 600 000 iterations)', async () => {
    const enc = await encryptPaste(PASTE_VECTOR.plaintext, { random: vectorRandom(), password: PASTE_VECTOR.password });
    expect(enc.encryption).toEqual({ ...PASTE_PARAMS, kdf: 'PBKDF2-SHA-256', iterations: 600_000 });
    expect(enc.content).toBe(PASTE_PW_CT);
    const ref = refPaste(
      { ...refInputs, iv: Buffer.from(seq(0xb0, 12)), password: PASTE_VECTOR.password, iterations: 600_000 },
      pasteJson,
    );
    expect(ref).toBe(PASTE_PW_CT);
    const params = enc.encryption;
    expect(await decryptPaste(PASTE_PW_CT, params, KEY, PASTE_VECTOR.password)).toEqual(PASTE_VECTOR.plaintext);
    expect(await codeOf(decryptPaste(PASTE_PW_CT, params, KEY))).toBe('password_required');
    expect(await codeOf(decryptPaste(PASTE_PW_CT, params, KEY, 'wrong'))).toBe('wrong_key');
    // Three 600 000-round derivations: ~0.4 s idle, several seconds on two busy CI cores.
  }, 60_000);

  it('refuses a missing, malformed or wrong key and altered ciphertext with a code, never garbage', async () => {
    expect(await codeOf(decryptPaste(PASTE_CT, PASTE_PARAMS, ''))).toBe('missing_key');
    expect(await codeOf(decryptPaste(PASTE_CT, PASTE_PARAMS, '#'))).toBe('missing_key');
    expect(await codeOf(decryptPaste(PASTE_CT, PASTE_PARAMS, '#abc'))).toBe('bad_key');
    const other = `${KEY.slice(0, -2)}Ag`;
    expect(parseLinkKey(other)).toHaveLength(32);
    expect(await codeOf(decryptPaste(PASTE_CT, PASTE_PARAMS, other))).toBe('wrong_key');
    const flipped = (PASTE_CT[5] === 'A' ? 'B' : 'A') + '';
    expect(await codeOf(decryptPaste(PASTE_CT.slice(0, 5) + flipped + PASTE_CT.slice(6), PASTE_PARAMS, KEY))).toBe(
      'wrong_key',
    );
    expect(await codeOf(decryptPaste(PASTE_CT, { ...PASTE_PARAMS, v: 2 as 1 }, KEY))).toBe('unsupported');
    expect(
      await codeOf(decryptPaste(PASTE_CT, { ...PASTE_PARAMS, kdf: 'PBKDF2-SHA-256', iterations: 1 }, KEY, 'x')),
    ).toBe('unsupported');
  });

  it('uses fresh random keys, salts and IVs by default', async () => {
    const a = await encryptPaste(PASTE_VECTOR.plaintext);
    const b = await encryptPaste(PASTE_VECTOR.plaintext);
    expect(a.key).not.toBe(b.key);
    expect(a.encryption.iv).not.toBe(b.encryption.iv);
    expect(await decryptPaste(a.content, a.encryption, a.key)).toEqual(PASTE_VECTOR.plaintext);
  });
});

describe('e2ee file format (CNF1)', () => {
  it('matches the published small-file vector byte for byte', async () => {
    const { bytes, enc } = await encryptedBytes(FILE_VECTOR.small.data, FILE_VECTOR.small);
    expect(enc.key).toBe(KEY);
    expect(enc.encryption).toEqual(FILE_PARAMS);
    expect(bytes.toString('hex')).toBe(SMALL_FILE_HEX);
    const header = JSON.stringify({ name: 'hello.txt', type: 'text/plain', size: 13 });
    const ref = refFile(
      { ...refInputs, prefix: Buffer.from(seq(0xb0, 8)) },
      header,
      Buffer.from(FILE_VECTOR.small.data),
    );
    expect(ref.toString('hex')).toBe(SMALL_FILE_HEX);
    const out = await decryptAll(Buffer.from(SMALL_FILE_HEX, 'hex'));
    expect(out.header).toEqual({ name: 'hello.txt', type: 'text/plain', size: 13 });
    expect(out.data.toString()).toBe('hello, world\n');
  });

  it('matches the published two-record vector (SHA-256) and decrypts whatever the read sizes', async () => {
    const { bytes, enc } = await encryptedBytes(FILE_VECTOR.multi.data, FILE_VECTOR.multi);
    expect(bytes.length).toBe(MULTI_FILE_SIZE);
    expect(enc.size).toBe(MULTI_FILE_SIZE);
    expect(sha256Hex(bytes)).toBe(MULTI_FILE_SHA256);
    const header = JSON.stringify({ name: 'pattern.bin', type: 'application/octet-stream', size: 70_000 });
    const ref = refFile(
      { ...refInputs, prefix: Buffer.from(seq(0xb0, 8)) },
      header,
      Buffer.from(FILE_VECTOR.multi.data),
    );
    expect(sha256Hex(ref)).toBe(MULTI_FILE_SHA256);
    for (const chunk of [1_000, E2EE_CHUNK_SIZE + E2EE_TAG_BYTES, 1 << 20]) {
      const out = await decryptAll(bytes, FILE_PARAMS as never, KEY, chunk);
      expect(Buffer.compare(out.data, Buffer.from(FILE_VECTOR.multi.data))).toBe(0);
    }
  });

  it('round-trips empty, exact-multiple and password-protected files', async () => {
    for (const size of [0, E2EE_CHUNK_SIZE, 2 * E2EE_CHUNK_SIZE + 1]) {
      const data = seq(7, size);
      const { bytes, enc } = await encryptedBytes(data, { name: 'a', type: '' });
      const out = await decryptAll(bytes, enc.encryption as never, enc.key);
      expect(out.data.length).toBe(size);
      expect(Buffer.compare(out.data, Buffer.from(data))).toBe(0);
    }
    const { bytes, enc } = await encryptedBytes(seq(1, 100), { name: 'p', type: '' }, 'pw');
    const { stream } = await createFileDecryptor(enc.encryption, enc.key, 'pw');
    const writer = stream.writable.getWriter();
    void writer.write(bytes).then(() => writer.close());
    const reader = stream.readable.getReader();
    expect((await reader.read()).value).toEqual(seq(1, 100));
    expect(await codeOf(createFileDecryptor(enc.encryption, enc.key))).toBe('password_required');
  });

  it('detects a wrong key, a flipped byte, truncation, reordering and appended data', async () => {
    const { bytes } = await encryptedBytes(seq(3, 3 * E2EE_CHUNK_SIZE + 5), { name: 'x', type: '' });
    const headerEnd = 4 + 8 + 4 + bytes.readUInt32BE(12);
    const R = E2EE_CHUNK_SIZE + E2EE_TAG_BYTES;
    const other = `${KEY.slice(0, -2)}Ag`;
    expect(await codeOf(decryptAll(bytes, FILE_PARAMS as never, other))).toBe('wrong_key');
    const flipped = Buffer.from(bytes);
    flipped[headerEnd + R + 100]! ^= 1;
    expect(await codeOf(decryptAll(flipped))).toBe('tampered');
    // Cut at a record boundary: the new last record was sealed as "not last".
    expect(await codeOf(decryptAll(bytes.subarray(0, headerEnd + 2 * R)))).toBe('tampered');
    expect(await codeOf(decryptAll(bytes.subarray(0, headerEnd)))).toBe('tampered');
    const swapped = Buffer.concat([
      bytes.subarray(0, headerEnd),
      bytes.subarray(headerEnd + R, headerEnd + 2 * R),
      bytes.subarray(headerEnd, headerEnd + R),
      bytes.subarray(headerEnd + 2 * R),
    ]);
    expect(await codeOf(decryptAll(swapped))).toBe('tampered');
    expect(await codeOf(decryptAll(Buffer.concat([bytes, Buffer.alloc(20)])))).toBe('tampered');
    expect(await codeOf(decryptAll(Buffer.from('not an encrypted file at all')))).toBe('unsupported');
  });

  it('reads any byte range of the object, the same bytes whatever the order, and again after a resume', async () => {
    const data = seq(5, 5 * E2EE_CHUNK_SIZE + 1234);
    const file = new Blob([data as Uint8Array<ArrayBuffer>]);
    const { bytes, enc } = await encryptedBytes(data, { name: 'parts.bin', type: '' });
    const R = E2EE_CHUNK_SIZE + E2EE_TAG_BYTES;
    // Part boundaries inside the head, inside records and on record edges; read in reverse order.
    const cuts = [0, 7, enc.head.length, enc.head.length + R - 1, enc.head.length + 2 * R, 200_001, bytes.length];
    const ranges = cuts.slice(1).map((end, i) => [cuts[i]!, end] as const);
    const resumed = resumeFileEncryption(file, structuredClone(enc.state))!;
    expect(resumed.size).toBe(bytes.length);
    for (const [start, end] of [...ranges].reverse()) {
      for (const source of [enc, resumed]) {
        const got = Buffer.from(await source.read(start, end));
        expect(Buffer.compare(got, bytes.subarray(start, end)), `${start}-${end}`).toBe(0);
      }
      // Sealed into a reused buffer (dirty, bigger than the range): the same bytes, in that buffer.
      const into = new Uint8Array(300_000).fill(0xee);
      const sealed = await sealRange(enc.job, start, end, into);
      expect(sealed.buffer).toBe(into.buffer);
      expect(Buffer.compare(Buffer.from(sealed), bytes.subarray(start, end)), `into ${start}-${end}`).toBe(0);
    }
    const out = await decryptAll(bytes, enc.encryption as never, resumed.key);
    expect(Buffer.compare(out.data, Buffer.from(data))).toBe(0);
    // A state made for another file (size) is not used.
    expect(resumeFileEncryption(new Blob([new Uint8Array(3)]), enc.state)).toBeNull();
    expect(resumeFileEncryption(file, undefined)).toBeNull();
  });
});
