import {
  E2EE_CHUNK_SIZE,
  E2EE_FILE_INFO,
  E2EE_FLAG_DATA,
  E2EE_FLAG_HEADER,
  E2EE_FLAG_LAST,
  E2EE_NONCE_PREFIX_BYTES,
  E2EE_TAG_BYTES,
  type E2eeParams,
} from '@clipnest/contract/e2ee';
import { fromBase64Url, toBase64Url } from './base64url';
import { E2eeError } from './errors';
import { type AesKey, newShareKey, type RandomSource, shareKey } from './keys';
import { crypt, MAGIC, RECORD_BYTES } from './records';
import { sealedSize, sealRange, type SealJob } from './seal';

/**
 * The CNF1 stream (docs/encryption.md): magic "CNF1" ‖ nonce prefix (8) ‖ u32be header length ‖ header
 * record ‖ data records. Record i (header = 0, data 1…n) is AES-256-GCM with nonce = prefix ‖ u32be(i) and
 * AAD = "CNF1" ‖ flag (2 header, 0 data, 1 last data record). Each data record but the last holds exactly
 * 64 KiB of plaintext; an empty file has one empty last record.
 */

const HEADER_MAX_BYTES = 64 * 1024;

/** The encrypted header: what the server must not see. */
export interface FileHeader {
  name: string;
  type: string;
  /** Plaintext size in bytes. */
  size: number;
}

/**
 * What reopens the same encryption of a file after a reload, so that a resumed upload sends exactly the bytes
 * the parts already uploaded belong to. Kept in IndexedDB with the upload session until it completes or is
 * discarded (structured-clone values only: the AES key stays a non-extractable CryptoKey).
 */
export interface FileEncryptionState {
  v: 1;
  /** The link key (fragment), for the link shown once the upload completes. */
  key: string;
  aesKey: AesKey;
  encryption: E2eeParams;
  /** base64url of the stream's first bytes (magic, nonce prefix, header length, encrypted header). */
  head: string;
  /** Plaintext size the state was made for. */
  size: number;
}

export interface FileEncryption {
  encryption: E2eeParams;
  /** The link key for the URL fragment: `/file/{slug}#{key}`. */
  key: string;
  /** The stream's first bytes: magic, prefix, header length and the encrypted header. */
  head: Uint8Array;
  /** Size of the whole encrypted object. */
  size: number;
  /**
   * Bytes [start, end) of the encrypted object (`sealRange` of `job`): any range, any number of times, in any
   * order, matches the same object.
   */
  read(start: number, end: number): Promise<Uint8Array<ArrayBuffer>>;
  /** What a Web Worker needs to seal ranges of the same object itself (`sealRange`). */
  job: SealJob;
  state: FileEncryptionState;
}

function sealer(file: Blob, key: AesKey, head: Uint8Array, state: FileEncryptionState): FileEncryption {
  const job: SealJob = { file, key, head };
  return {
    encryption: state.encryption,
    key: state.key,
    head,
    size: sealedSize(job),
    job,
    state,
    read: (start, end) => sealRange(job, start, end),
  };
}

/** Sets up the encryption of `file` (name and type go in the encrypted header) under a new random key. */
export async function encryptFile(
  file: Blob,
  meta: { name: string; type: string },
  options: { password?: string; iterations?: number; random?: RandomSource } = {},
): Promise<FileEncryption> {
  const { key, fragment, params, random } = await newShareKey('file', E2EE_FILE_INFO, options);
  const prefix = random(E2EE_NONCE_PREFIX_BYTES);
  const header: FileHeader = { name: meta.name, type: meta.type, size: file.size };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const sealedHeader = await crypt('encrypt', key, prefix, 0, E2EE_FLAG_HEADER, json);
  const head = new Uint8Array(MAGIC.length + prefix.length + 4 + sealedHeader.length);
  head.set(MAGIC, 0);
  head.set(prefix, MAGIC.length);
  new DataView(head.buffer).setUint32(MAGIC.length + prefix.length, sealedHeader.length, false);
  head.set(sealedHeader, MAGIC.length + prefix.length + 4);
  const encryption: E2eeParams = { ...params, chunk_size: E2EE_CHUNK_SIZE };
  const state: FileEncryptionState = {
    v: 1,
    key: fragment,
    aesKey: key,
    encryption,
    head: toBase64Url(head),
    size: file.size,
  };
  return sealer(file, key, head, state);
}

/** The same encryption of the same file again (a resumed upload), or null when the state does not fit it. */
export function resumeFileEncryption(file: Blob, state: FileEncryptionState | undefined): FileEncryption | null {
  if (!state || state.v !== 1 || state.size !== file.size || !state.aesKey) return null;
  const head = fromBase64Url(state.head);
  if (!head || head.length < MAGIC.length + E2EE_NONCE_PREFIX_BYTES + 4 + E2EE_TAG_BYTES) return null;
  return sealer(file, state.aesKey, head, state);
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
  if (params.chunk_size !== undefined && params.chunk_size !== E2EE_CHUNK_SIZE) throw new E2eeError('unsupported');
  const key = await shareKey(params, 'file', E2EE_FILE_INFO, fragment, password);
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
      plain = await crypt('decrypt', key, pre, 0, E2EE_FLAG_HEADER, buffer.subarray(fixed, fixed + length));
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
      const plain = await crypt('decrypt', key, prefix!, counter, last ? E2EE_FLAG_LAST : E2EE_FLAG_DATA, data);
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
