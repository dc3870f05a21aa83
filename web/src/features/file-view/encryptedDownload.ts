/**
 * Download and decryption of an end-to-end encrypted file (docs/encryption.md, "Downloads in the browser").
 * The ciphertext is streamed through the decryptor: into a file chosen with the File System Access API when
 * the browser has it (memory stays flat), else into a Blob up to {@link E2EE_BLOB_LIMIT}.
 */
import type { PublicFileDetails } from '@clipnest/contract';
import { createFileDecryptor, type FileHeader } from '../../lib/e2ee';
import { resolveFileUrl } from './api';

/** Largest plaintext collected in memory (a Blob) when the File System Access API is not available. */
export const E2EE_BLOB_LIMIT = 512 * 1024 * 1024;
/** Largest file previewed automatically after decryption. */
export const E2EE_AUTO_PREVIEW_LIMIT = 64 * 1024 * 1024;

interface SaveFilePicker {
  (options: { suggestedName?: string }): Promise<{ createWritable(): Promise<WritableStream<Uint8Array>> }>;
}

export function fileSystemAccess(): SaveFilePicker | null {
  const picker = (window as unknown as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  return typeof picker === 'function' ? picker.bind(window) : null;
}

async function ciphertext(
  file: PublicFileDetails,
  signal?: AbortSignal,
  range?: string,
): Promise<ReadableStream<Uint8Array>> {
  const response = await fetch(resolveFileUrl(file.download_url), {
    signal,
    ...(range ? { headers: { Range: range } } : {}),
  });
  if (!response.ok || !response.body) throw new Error(`download failed (${response.status})`);
  return response.body;
}

/** Decrypts only the header (a ranged read of the first bytes): name, type and size; checks the key. */
export async function readHeader(file: PublicFileDetails, fragment: string, password?: string): Promise<FileHeader> {
  const { stream, header } = await createFileDecryptor(file.encryption!, fragment, password);
  const response = await fetch(resolveFileUrl(file.download_url), { headers: { Range: 'bytes=0-65551' } });
  if (!response.ok) throw new Error(`download failed (${response.status})`);
  const head = new Uint8Array(await response.arrayBuffer());
  // The records after the header are not needed here: drain and drop them.
  void stream.readable.pipeTo(new WritableStream()).catch(() => undefined);
  const writer = stream.writable.getWriter();
  void writer
    .write(head)
    .then(() => writer.close())
    .catch(() => undefined);
  return header;
}

function counting(onBytes: (n: number) => void): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.length;
      onBytes(total);
      controller.enqueue(chunk);
    },
  });
}

/** The whole plaintext in a Blob (previews, and downloads where the File System Access API is missing). */
export async function decryptToBlob(
  file: PublicFileDetails,
  fragment: string,
  password: string | undefined,
  onProgress: (ciphertextBytes: number) => void,
  signal?: AbortSignal,
): Promise<{ blob: Blob; header: FileHeader }> {
  const { stream, header } = await createFileDecryptor(file.encryption!, fragment, password);
  const body = await ciphertext(file, signal);
  const plain = body.pipeThrough(counting(onProgress)).pipeThrough(stream);
  const parts: Uint8Array[] = [];
  const reader = plain.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const info = await header;
  return {
    blob: new Blob(parts as Uint8Array<ArrayBuffer>[], { type: info.type || 'application/octet-stream' }),
    header: info,
  };
}

/** Streams the plaintext into a file the user picks; a failure aborts the write (nothing half-written kept). */
export async function decryptToFile(
  picker: SaveFilePicker,
  file: PublicFileDetails,
  fragment: string,
  password: string | undefined,
  suggestedName: string,
  onProgress: (ciphertextBytes: number) => void,
): Promise<void> {
  const handle = await picker({ suggestedName });
  const writable = await handle.createWritable();
  const { stream } = await createFileDecryptor(file.encryption!, fragment, password);
  const body = await ciphertext(file);
  await body.pipeThrough(counting(onProgress)).pipeThrough(stream).pipeTo(writable);
}
