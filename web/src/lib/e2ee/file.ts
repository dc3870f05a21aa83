import {
  E2EE_CHUNK_SIZE,
  E2EE_FILE_INFO,
  E2EE_FILE_MAGIC,
  E2EE_FLAG_DATA,
  E2EE_FLAG_HEADER,
  E2EE_FLAG_LAST,
  E2EE_NONCE_PREFIX_BYTES,
  E2EE_PBKDF2_ITERATIONS,
  E2EE_SALT_BYTES,
  E2EE_TAG_BYTES,
  type E2eeParams,
} from '@clipnest/contract/e2ee';
import { toBase64Url } from './base64url';
import { E2eeError } from './errors';
import {
  type AesKey,
  bs,
  checkParams,
  cryptoRandom,
  decodeSalt,
  deriveAesKey,
  newLinkKey,
  parseLinkKey,
  type RandomSource,
} from './keys';

/**
 * The CNF1 stream (docs/encryption.md): magic "CNF1" ‖ nonce prefix (8) ‖ u32be header length ‖ header
 * record ‖ data records. Record i (header = 0, data 1…n) is AES-256-GCM with nonce = prefix ‖ u32be(i) and
 * AAD = "CNF1" ‖ flag (2 header, 0 data, 1 last data record). Each data record but the last holds exactly
 * 64 KiB of plaintext; an empty file has one empty last record.
 */

const MAGIC = new TextEncoder().encode(E2EE_FILE_MAGIC);
const RECORD_BYTES = E2EE_CHUNK_SIZE + E2EE_TAG_BYTES;
const HEADER_MAX_BYTES = 64 * 1024;
/** Plaintext read from the file per step (records of one step are encrypted in parallel). */
const READ_BYTES = 64 * E2EE_CHUNK_SIZE;

/** The encrypted header: what the server must not see. */
export interface FileHeader {
  name: string;
  type: string;
  /** Plaintext size in bytes. */
  size: number;
}

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

async function seal(key: AesKey, prefix: Uint8Array, counter: number, flag: number, data: Uint8Array) {
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: bs(nonce(prefix, counter)), additionalData: bs(aad(flag)) },
    key,
    bs(data),
  );
  return new Uint8Array(sealed);
}

async function open(key: AesKey, prefix: Uint8Array, counter: number, flag: number, data: Uint8Array) {
  const opened = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bs(nonce(prefix, counter)), additionalData: bs(aad(flag)) },
    key,
    bs(data),
  );
  return new Uint8Array(opened);
}

export interface FileEncryption {
  encryption: E2eeParams;
  /** The link key for the URL fragment: `/file/{slug}#{key}`. */
  key: string;
  /** The stream's first bytes: magic, prefix, header length and the encrypted header. */
  head: Uint8Array;
  /** Size of the whole encrypted object. */
  size: number;
  /** Encrypted records, in order, reading `file` a few MiB at a time. */
  records(onPlaintext?: (done: number) => void): AsyncGenerator<Uint8Array>;
}

/** Sets up the encryption of `file` (name and type go in the encrypted header). */
export async function encryptFile(
  file: Blob,
  meta: { name: string; type: string },
  options: { password?: string; iterations?: number; random?: RandomSource } = {},
): Promise<FileEncryption> {
  const random = options.random ?? cryptoRandom;
  const link = newLinkKey(random);
  const salt = random(E2EE_SALT_BYTES);
  const prefix = random(E2EE_NONCE_PREFIX_BYTES);
  const iterations = options.password ? (options.iterations ?? E2EE_PBKDF2_ITERATIONS) : 0;
  const key = await deriveAesKey(
    link.bytes,
    salt,
    E2EE_FILE_INFO,
    options.password ? { text: options.password, iterations } : null,
  );
  const header: FileHeader = { name: meta.name, type: meta.type, size: file.size };
  const sealedHeader = await seal(key, prefix, 0, E2EE_FLAG_HEADER, new TextEncoder().encode(JSON.stringify(header)));
  const head = new Uint8Array(MAGIC.length + prefix.length + 4 + sealedHeader.length);
  head.set(MAGIC, 0);
  head.set(prefix, MAGIC.length);
  new DataView(head.buffer).setUint32(MAGIC.length + prefix.length, sealedHeader.length, false);
  head.set(sealedHeader, MAGIC.length + prefix.length + 4);
  const recordCount = Math.max(1, Math.ceil(file.size / E2EE_CHUNK_SIZE));
  return {
    encryption: {
      v: 1,
      alg: 'AES-256-GCM',
      kind: 'file',
      kdf: options.password ? 'PBKDF2-SHA-256' : 'none',
      iterations,
      salt: toBase64Url(salt),
      chunk_size: E2EE_CHUNK_SIZE,
    },
    key: link.fragment,
    head,
    size: head.length + file.size + recordCount * E2EE_TAG_BYTES,
    async *records(onPlaintext) {
      let counter = 1;
      for (let offset = 0; offset < file.size || counter === 1; offset += READ_BYTES) {
        const plain = new Uint8Array(await file.slice(offset, offset + READ_BYTES).arrayBuffer());
        const jobs: Promise<Uint8Array>[] = [];
        for (let at = 0; at < plain.length || (plain.length === 0 && jobs.length === 0); at += E2EE_CHUNK_SIZE) {
          const end = Math.min(at + E2EE_CHUNK_SIZE, plain.length);
          const last = counter === recordCount;
          jobs.push(seal(key, prefix, counter, last ? E2EE_FLAG_LAST : E2EE_FLAG_DATA, plain.subarray(at, end)));
          counter++;
        }
        for (const record of await Promise.all(jobs)) yield record;
        onPlaintext?.(Math.min(file.size, offset + plain.length));
        if (file.size === 0) break;
      }
    },
  };
}

/**
 * Encrypts `file` into a Blob (the browser keeps big Blobs on disk, not in the page's heap) that the
 * ordinary uploaders send like any file.
 */
export async function encryptFileToBlob(
  file: Blob,
  meta: { name: string; type: string },
  options: { password?: string; onProgress?: (done: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<{ blob: Blob; encryption: E2eeParams; key: string }> {
  const enc = await encryptFile(file, meta, options);
  const parts: (Blob | Uint8Array<ArrayBuffer>)[] = [enc.head as Uint8Array<ArrayBuffer>];
  let batch: Uint8Array<ArrayBuffer>[] = [];
  for await (const record of enc.records((done) => options.onProgress?.(done, file.size))) {
    if (options.signal?.aborted) throw new DOMException('cancelled', 'AbortError');
    batch.push(record as Uint8Array<ArrayBuffer>);
    if (batch.length >= 64) {
      parts.push(new Blob(batch));
      batch = [];
    }
  }
  if (batch.length > 0) parts.push(new Blob(batch));
  const blob = new Blob(parts, { type: 'application/octet-stream' });
  if (blob.size !== enc.size) throw new Error('encrypted size mismatch');
  return { blob, encryption: enc.encryption, key: enc.key };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

export interface FileDecryptor {
  /** Ciphertext in, plaintext out. Errors with an E2eeError (wrong_key on the header, tampered after). */
  stream: TransformStream<Uint8Array, Uint8Array>;
  /** Resolves with the header once decrypted (name, type and size). */
  header: Promise<FileHeader>;
}

/** Starts a streaming decryption; the key and password are checked on the header record. */
export async function createFileDecryptor(
  params: E2eeParams,
  fragment: string | null | undefined,
  password?: string,
): Promise<FileDecryptor> {
  checkParams(params, 'file');
  if (params.chunk_size !== undefined && params.chunk_size !== E2EE_CHUNK_SIZE) throw new E2eeError('unsupported');
  const linkKey = parseLinkKey(fragment);
  const needsPassword = params.kdf !== 'none';
  if (needsPassword && !password) throw new E2eeError('password_required');
  const key = await deriveAesKey(
    linkKey,
    decodeSalt(params),
    E2EE_FILE_INFO,
    needsPassword ? { text: password!, iterations: params.iterations } : null,
  );
  let resolveHeader!: (header: FileHeader) => void;
  let rejectHeader!: (error: unknown) => void;
  const header = new Promise<FileHeader>((resolve, reject) => {
    resolveHeader = resolve;
    rejectHeader = reject;
  });
  header.catch(() => undefined);
  let buffer: Uint8Array = new Uint8Array(0);
  let prefix: Uint8Array | null = null;
  let info: FileHeader | null = null;
  let counter = 1;
  let produced = 0;

  const fail = (error: E2eeError): never => {
    rejectHeader(error);
    throw error;
  };

  async function readHeader(): Promise<boolean> {
    const fixed = MAGIC.length + E2EE_NONCE_PREFIX_BYTES + 4;
    if (buffer.length < fixed) return false;
    for (let i = 0; i < MAGIC.length; i++)
      if (buffer[i] !== MAGIC[i]) fail(new E2eeError('unsupported', 'not a CNF1 stream'));
    const length = new DataView(buffer.buffer, buffer.byteOffset).getUint32(MAGIC.length + E2EE_NONCE_PREFIX_BYTES);
    if (length < E2EE_TAG_BYTES || length > HEADER_MAX_BYTES) fail(new E2eeError('tampered'));
    if (buffer.length < fixed + length) return false;
    const pre = buffer.slice(MAGIC.length, MAGIC.length + E2EE_NONCE_PREFIX_BYTES);
    let plain: Uint8Array;
    try {
      plain = await open(key, pre, 0, E2EE_FLAG_HEADER, buffer.subarray(fixed, fixed + length));
    } catch {
      return fail(new E2eeError('wrong_key'));
    }
    let parsed: Partial<FileHeader>;
    try {
      parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plain)) as Partial<FileHeader>;
    } catch {
      return fail(new E2eeError('tampered'));
    }
    if (typeof parsed.name !== 'string' || typeof parsed.size !== 'number' || !Number.isSafeInteger(parsed.size)) {
      fail(new E2eeError('tampered'));
    }
    info = { name: parsed.name!, type: typeof parsed.type === 'string' ? parsed.type : '', size: parsed.size! };
    prefix = pre;
    buffer = buffer.slice(fixed + length);
    resolveHeader(info);
    return true;
  }

  async function record(data: Uint8Array, last: boolean): Promise<Uint8Array> {
    try {
      const plain = await open(key, prefix!, counter, last ? E2EE_FLAG_LAST : E2EE_FLAG_DATA, data);
      counter++;
      produced += plain.length;
      return plain;
    } catch {
      throw new E2eeError('tampered');
    }
  }

  const stream = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      buffer = concat(buffer, chunk);
      if (!prefix && !(await readHeader())) return;
      // A full record is known not to be the last only once a byte after it has arrived.
      let at = 0;
      while (buffer.length - at > RECORD_BYTES) {
        controller.enqueue(await record(buffer.subarray(at, at + RECORD_BYTES), false));
        at += RECORD_BYTES;
      }
      if (at > 0) buffer = buffer.slice(at);
    },
    async flush(controller) {
      if (!prefix) fail(new E2eeError('tampered', 'the stream ends inside its header'));
      if (buffer.length < E2EE_TAG_BYTES) throw new E2eeError('tampered', 'the stream is truncated');
      controller.enqueue(await record(buffer, true));
      if (produced !== info!.size) throw new E2eeError('tampered', 'the size does not match the header');
    },
  });
  return { stream, header };
}
