/**
 * Sealed parts kept as files of the origin private file system (OPFS) while they upload: an upload reads such a
 * File from disk like a plain file's slice. A Blob of bytes would stay in the browser's memory until the threads
 * holding it collect their garbage, which they do not do for Blobs: a 1 GiB upload ended with ~1 GiB of parts held.
 * The sealing worker keeps its part files open (synchronous access handles exist only in workers) and reuses
 * each once its upload is done with it, so a few files serve a whole upload: creating and opening a file for
 * every part took longer than writing it. Nothing is flushed to disk: a part is read back from the page
 * cache within seconds and is of no use after a crash.
 */

/** The folder of this app's sealed parts in the origin private file system. */
const FOLDER = 'clipnest-sealed-parts';
/** Parts older than this are left over from a closed tab (a live worker's files are locked, and rewritten often). */
const LEFTOVER_MS = 24 * 60 * 60 * 1000;

/** Synchronous access handle (typed here: the web project's DOM library leaves out worker-only APIs). */
interface SyncAccessHandle {
  write(buffer: BufferSource, options?: { at?: number }): number;
  truncate(size: number): void;
  close(): void;
}
interface WorkerFileHandle extends FileSystemFileHandle {
  createSyncAccessHandle(): Promise<SyncAccessHandle>;
}

interface Slot {
  handle: WorkerFileHandle;
  access: SyncAccessHandle;
}

export interface PartFiles {
  /** Writes the bytes to a free part file and answers it (a File whose bytes are on disk) and its name. */
  write(bytes: Uint8Array<ArrayBuffer>): Promise<{ file: File; name: string }>;
  /** The upload is done with the File of part file `name`: the file takes a later part. */
  release(name: string): void;
  /** Closes and deletes every part file (the worker is about to stop). */
  close(): Promise<void>;
}

/** The part files of this worker, or null where the origin private file system cannot be written. */
export async function openPartFiles(): Promise<PartFiles | null> {
  let dir: FileSystemDirectoryHandle;
  try {
    dir = await navigator.storage.getDirectory().then((root) => root.getDirectoryHandle(FOLDER, { create: true }));
    if (!('createSyncAccessHandle' in FileSystemFileHandle.prototype)) return null;
  } catch {
    return null;
  }
  void sweepLeftovers(dir);
  const slots = new Map<string, Slot>();
  const free = new Set<string>();

  const take = async (): Promise<[string, Slot]> => {
    for (const name of free) {
      free.delete(name);
      return [name, slots.get(name)!];
    }
    const name = `${crypto.randomUUID()}.part`;
    const handle = (await dir.getFileHandle(name, { create: true })) as WorkerFileHandle;
    const slot = { handle, access: await handle.createSyncAccessHandle() };
    slots.set(name, slot);
    return [name, slot];
  };

  return {
    async write(bytes) {
      const [name, slot] = await take();
      try {
        slot.access.truncate(bytes.length);
        slot.access.write(bytes, { at: 0 });
        return { file: await slot.handle.getFile(), name };
      } catch (error) {
        free.add(name);
        throw error;
      }
    },
    release(name) {
      if (slots.has(name)) free.add(name);
    },
    async close() {
      const names = [...slots.keys()];
      for (const slot of slots.values()) slot.access.close();
      slots.clear();
      free.clear();
      await Promise.all(names.map((name) => dir.removeEntry(name).catch(() => undefined)));
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
