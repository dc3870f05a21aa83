import { UPLOAD_SESSION_TTL_MS } from '@clipnest/contract';

/**
 * Where unfinished multipart uploads are remembered so they survive a reload (spec §4 "Resume").
 * A browser cannot reopen a file by itself: the record names the file (name, size, lastModified)
 * so the page can offer to resume when the user picks the same file again.
 */
export interface ResumeRecord {
  /** fingerprint of file + target config, see `resumeKey`. */
  key: string;
  /** Name of the file on disk. */
  name: string;
  /** Name the share is stored under. */
  filename: string;
  size: number;
  lastModified: number;
  s3_config_id: string;
  file_id: string;
  upload_id: string;
  part_size: number;
  part_count: number;
  /** Part numbers known to be uploaded. */
  parts_done: number[];
  /** Set when the bytes sent are not the file's own (UploadSource); `size` is then theirs. */
  source?: { kind: string; id: string; state: unknown; file_size: number };
  created_at: number;
  updated_at: number;
}

export interface ResumeStore {
  get(key: string): Promise<ResumeRecord | undefined>;
  put(record: ResumeRecord): Promise<void>;
  delete(key: string): Promise<void>;
  list(): Promise<ResumeRecord[]>;
}

/** `kind`: a source of other bytes for the same file (UploadSource.kind, e.g. 'e2ee'), kept apart. */
export function resumeKey(
  file: { name: string; size: number; lastModified: number },
  configId = '',
  kind?: string,
): string {
  const parts: (string | number)[] = [file.name, file.size, file.lastModified, configId];
  if (kind) parts.push(kind);
  return JSON.stringify(parts);
}

/** true when the picked file is the one the record was made for. */
export function matchesRecord(file: { name: string; size: number; lastModified: number }, record: ResumeRecord) {
  const size = record.source?.file_size ?? record.size;
  return file.name === record.name && file.size === size && file.lastModified === record.lastModified;
}

/** Records older than the server's session TTL are gone on the server too. */
export function isStale(record: ResumeRecord, now = Date.now()): boolean {
  return now - record.updated_at > UPLOAD_SESSION_TTL_MS;
}

export function createMemoryResumeStore(): ResumeStore {
  const map = new Map<string, ResumeRecord>();
  return {
    get: (key) => Promise.resolve(map.get(key)),
    put: (record) => {
      map.set(record.key, { ...record, parts_done: [...record.parts_done] });
      return Promise.resolve();
    },
    delete: (key) => {
      map.delete(key);
      return Promise.resolve();
    },
    list: () => Promise.resolve([...map.values()]),
  };
}

const DB_NAME = 'clipnest-uploads';
const STORE = 'multipart';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

export function createIndexedDbResumeStore(): ResumeStore {
  let db: Promise<IDBDatabase> | undefined;
  const open = () => {
    db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE, { keyPath: 'key' });
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error ?? new Error('IndexedDB unavailable'));
    });
    return db;
  };
  const tx = async (mode: IDBTransactionMode) => (await open()).transaction(STORE, mode).objectStore(STORE);
  return {
    get: async (key) => (await request((await tx('readonly')).get(key))) as ResumeRecord | undefined,
    put: async (record) => {
      await request((await tx('readwrite')).put(record));
    },
    delete: async (key) => {
      await request((await tx('readwrite')).delete(key));
    },
    list: async () => (await request((await tx('readonly')).getAll())) as ResumeRecord[],
  };
}

/** Never lets a storage failure (private mode, quota) break an upload: it only loses resumability. */
function tolerant(store: ResumeStore): ResumeStore {
  return {
    get: (key) => store.get(key).catch(() => undefined),
    put: (record) => store.put(record).catch(() => undefined),
    delete: (key) => store.delete(key).catch(() => undefined),
    list: () => store.list().catch(() => []),
  };
}

let shared: ResumeStore | undefined;
const listeners = new Set<() => void>();

/** The browser's store (IndexedDB, or memory where it is missing). */
export function resumeStore(): ResumeStore {
  if (!shared) {
    const base = typeof indexedDB !== 'undefined' ? createIndexedDbResumeStore() : createMemoryResumeStore();
    const safe = tolerant(base);
    const notify = () => {
      for (const listener of listeners) listener();
    };
    shared = {
      get: safe.get,
      list: safe.list,
      put: async (record) => {
        await safe.put(record);
        notify();
      },
      delete: async (key) => {
        await safe.delete(key);
        notify();
      },
    };
  }
  return shared;
}

/** Called after any change of the shared store (the page's resume panel listens). */
export function onResumeStoreChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
