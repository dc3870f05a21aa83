/**
 * Sealed parts kept as files of the origin private file system (OPFS) while they upload: an upload reads such a
 * File from disk like a plain file's slice, and deleting it frees it at once. A Blob of bytes would stay in the
 * browser's memory until the threads holding it collect their garbage, which they do not do for Blobs: a
 * 1 GiB upload ended with ~1 GiB of parts held. Written from the sealing worker (synchronous access handles
 * exist only in workers), deleted from the page once sent.
 */

/** The folder of this app's sealed parts in the origin private file system. */
const FOLDER = 'clipnest-sealed-parts';
/** Parts older than this are left over from a closed tab (a live upload writes new ones every few seconds). */
const LEFTOVER_MS = 24 * 60 * 60 * 1000;

/** Synchronous access handle (typed here: the web project's DOM library leaves out worker-only APIs). */
interface SyncAccessHandle {
  write(buffer: BufferSource, options?: { at?: number }): number;
  flush(): void;
  close(): void;
}
interface WorkerFileHandle extends FileSystemFileHandle {
  createSyncAccessHandle(): Promise<SyncAccessHandle>;
}

function folder(): Promise<FileSystemDirectoryHandle> {
  return navigator.storage.getDirectory().then((root) => root.getDirectoryHandle(FOLDER, { create: true }));
}

export interface PartFiles {
  /** Writes the bytes to a new file and answers it (a File whose bytes are on disk) and its name. */
  write(bytes: Uint8Array<ArrayBuffer>): Promise<{ file: File; name: string }>;
}

/** The part files of this worker, or null where the origin private file system cannot be written. */
export async function openPartFiles(): Promise<PartFiles | null> {
  let dir: FileSystemDirectoryHandle;
  try {
    dir = await folder();
    if (!('createSyncAccessHandle' in FileSystemFileHandle.prototype)) return null;
  } catch {
    return null;
  }
  void sweepLeftovers(dir);
  return {
    async write(bytes) {
      const name = `${crypto.randomUUID()}.part`;
      const handle = (await dir.getFileHandle(name, { create: true })) as WorkerFileHandle;
      const access = await handle.createSyncAccessHandle();
      try {
        access.write(bytes, { at: 0 });
        access.flush();
      } finally {
        access.close();
      }
      return { file: await handle.getFile(), name };
    },
  };
}

async function sweepLeftovers(dir: FileSystemDirectoryHandle): Promise<void> {
  try {
    const cutoff = Date.now() - LEFTOVER_MS;
    for await (const entry of dir.values()) {
      if (entry.kind !== 'file') continue;
      const file = await entry.getFile();
      if (file.lastModified < cutoff) await dir.removeEntry(entry.name).catch(() => undefined);
    }
  } catch {
    // Best effort: a leftover costs disk space, not correctness.
  }
}

/** Deletes a part file once its upload is done with it (from the page or the worker). */
export function removePartFile(name: string): void {
  folder()
    .then((dir) => dir.removeEntry(name))
    .catch(() => undefined);
}
