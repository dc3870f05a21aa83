// The storage driver interface (ARCHITECTURE.md "Storage drivers"). Drivers import nothing else of the app.
//
// Conventions every driver follows:
// - Paths are relative POSIX paths inside the driver's root, already normalised by `normalizePath`
//   (paths.ts): no leading or trailing slash, '' is the root. Drivers re-check them and throw
//   StorageError('invalid_path') rather than trust the caller.
// - Bytes move as streams; nothing is buffered whole. Reads answer Web streams; writes take a Web stream or
//   a Node readable (WriteBody).
// - ETags are HTTP-ready quoted strings (`"…"`), usable as an `ETag` header and for If-None-Match.
// - Drivers throw only StorageError; the vfs / services map its code to an AppError.

import type { Readable } from 'node:stream';

/** What a driver's write takes: a Web stream or a Node readable of bytes. */
export type WriteBody = ReadableStream<Uint8Array> | Readable;

/** Why a storage call failed. services/storageErrors.ts is the one map to HTTP statuses. */
export type StorageErrorCode =
  | 'not_found' // path (or multipart upload) does not exist → 404
  | 'exists' // target exists and overwrite was false → 409
  | 'not_a_directory' // a directory was expected (list of a file, parent is a file) → 409
  | 'is_a_directory' // a file was expected (read of a directory) → 409
  | 'not_empty' // non-recursive remove of a non-empty directory → 409
  | 'invalid_path' // `..`, encoded dots, backslash, NUL, reserved names, root where not allowed → 400
  | 'range' // unsatisfiable byte range → 416
  | 'quota' // the backing store is full (ENOSPC/EDQUOT) → 507 insufficient storage
  | 'quota_exceeded' // a capacity the app enforces (a config's total_capacity) would be passed → 413
  | 'precondition' // an If-Match / If-None-Match style condition failed → 412
  | 'locked' // the path is locked (WebDAV LOCK) → 423
  | 'too_large' // WriteOptions.maxBytes exceeded while streaming → 413
  | 'size_mismatch' // WriteOptions.size given and the stream carried a different number of bytes → 400
  | 'invalid_part' // multipart complete with a missing part or a wrong ETag → 400
  | 'unsupported' // the backend lacks the operation (e.g. ListParts on s3rver) → 501
  | 'denied' // credentials refused by the backend → 502 (our upstream refused us: a configuration problem, not the user's)
  | 'aborted' // the caller's AbortSignal fired
  | 'unavailable' // backend unreachable, timed out, 5xx, missing bucket → 503
  | 'io'; // anything else → 500

export class StorageError extends Error {
  readonly code: StorageErrorCode;
  /** The driver-relative path concerned, when there is one. */
  readonly path?: string;

  constructor(code: StorageErrorCode, message?: string, options: { path?: string; cause?: unknown } = {}) {
    super(message ?? code, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StorageError';
    this.code = code;
    this.path = options.path;
  }
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}

/** A file or directory. */
export interface Entry {
  /** Driver-relative path ('' for the root). */
  path: string;
  /** Last path segment ('' for the root). */
  name: string;
  isDir: boolean;
  /** Bytes; 0 for directories. */
  size: number;
  lastModified?: Date;
  /** Quoted, HTTP-ready; files only. */
  etag?: string;
  contentType?: string;
  /** A symbolic link (local storage): the driver path it resolves to ('' = the root). Absent for other entries. */
  linkTarget?: string;
}

/**
 * A byte range as HTTP has it, `end` inclusive:
 * `{ start: 0, end: 0 }` = first byte, `{ start: 100 }` = from 100 to the end, `{ suffix: 500 }` = last 500 bytes.
 * An `end` past the end of the file is clamped; a `start` at or past the end, a suffix of 0, or any range of
 * a 0-byte file is unsatisfiable → StorageError('range').
 */
export type ByteRange = { start: number; end?: number } | { suffix: number };

export interface ReadOptions {
  range?: ByteRange;
  signal?: AbortSignal;
}

export interface ReadResult {
  stream: ReadableStream<Uint8Array>;
  /** Size of the whole object. */
  size: number;
  /** Bytes the stream will carry (= size without a range). */
  contentLength: number;
  /** The resolved range, both ends inclusive, when a range was asked for. */
  range?: { start: number; end: number };
  etag?: string;
  lastModified?: Date;
  contentType?: string;
}

export interface WriteOptions {
  /** Replace an existing file (default true). false → StorageError('exists') when the path exists. */
  overwrite?: boolean;
  contentType?: string;
  /** Expected byte count; a stream that carries a different number fails with 'size_mismatch', nothing written. */
  size?: number;
  /** Fail with 'too_large' as soon as the stream passes this many bytes; nothing written. */
  maxBytes?: number;
  /** Aborting fails the write with 'aborted'; nothing written. */
  signal?: AbortSignal;
}

export interface ListPage {
  cursor?: string;
  /** Default 1000, at most 1000. */
  limit?: number;
}

export interface ListResult {
  /** Directories and files, in the driver's order (local: by name; S3: by key). */
  entries: Entry[];
  /** Present when there are more entries: pass it back for the next page. */
  cursor?: string;
}

export interface PresignOptions {
  /** For 'get': the Content-Disposition the backend should answer with. */
  contentDisposition?: string;
  /** For 'get': the Content-Type to answer with; for 'put': the type the client must send (signed). */
  contentType?: string;
  /** For 'put': the exact Content-Length the client must send (signed: other lengths are refused). */
  contentLength?: number;
}

export interface UploadedPart {
  partNumber: number;
  /** Quoted ETag as the backend reported it. */
  etag: string;
  size: number;
  lastModified?: Date;
}

export interface MultipartStartOptions {
  contentType?: string;
  /** Checked at start and again at complete (default true). */
  overwrite?: boolean;
}

export interface MultipartUploadInfo {
  uploadId: string;
  path: string;
  initiated?: Date;
}

/**
 * Multipart uploads (resumable, parts in any order, 1-based part numbers up to `maxParts`).
 * S3: the client PUTs parts straight to presigned URLs (`signPart`); local: parts go through the
 * server (`uploadPart`). Both drivers implement `uploadPart` so the server can proxy either way.
 * Operations the backend lacks (s3rver: ListParts, AbortMultipartUpload, ListMultipartUploads)
 * throw StorageError('unsupported'); the caller keeps its own record of uploaded parts.
 */
export interface MultipartCapability {
  /** Smallest size of every part but the last (S3: 5 MiB; local: 1). */
  readonly minPartSize: number;
  readonly maxParts: number;
  /** true when parts can go straight from the client to the backend via `signPart`. */
  readonly presignedParts: boolean;
  start(path: string, opts?: MultipartStartOptions): Promise<{ uploadId: string }>;
  /**
   * A URL the client PUTs the part's bytes to; the response's ETag header is the part's ETag. With
   * `contentLength` the URL signs it: the backend refuses a part of any other size.
   */
  signPart?(
    path: string,
    uploadId: string,
    partNumber: number,
    ttlSeconds: number,
    opts?: { contentLength?: number },
  ): Promise<string>;
  /** Streams one part through the server. Re-sending a part number replaces it. */
  uploadPart(
    path: string,
    uploadId: string,
    partNumber: number,
    body: ReadableStream<Uint8Array>,
    opts?: { size?: number; signal?: AbortSignal },
  ): Promise<UploadedPart>;
  /** Parts the backend holds, ascending. 'unsupported' when the backend cannot list them. */
  listParts(path: string, uploadId: string): Promise<UploadedPart[]>;
  /** Joins the parts (ascending part numbers, every ETag must match) into the file at `path`. */
  complete(path: string, uploadId: string, parts: Array<{ partNumber: number; etag: string }>): Promise<Entry>;
  /** Drops the upload and its parts. 'not_found' for an unknown id; 'unsupported' when the backend cannot. */
  abort(path: string, uploadId: string): Promise<void>;
  /** Unfinished uploads, for a stale-upload sweep. 'unsupported' when the backend cannot list them. */
  listUploads?(): Promise<MultipartUploadInfo[]>;
}

export interface StorageDriver {
  readonly kind: string; // 'local' | 's3' | …
  /** throws StorageError('not_found'). stat('') is the root directory. */
  stat(path: string): Promise<Entry>;
  list(dir: string, page?: ListPage): Promise<ListResult>;
  read(path: string, opts?: ReadOptions): Promise<ReadResult>;
  /**
   * Streams `body` into `path` atomically (creating parent directories); answers the new entry. A Node
   * readable is taken as it is, so a Node source (an upload's request body) crosses no Web stream.
   */
  write(path: string, body: WriteBody, opts?: WriteOptions): Promise<Entry>;
  /** Creates the directory and its parents; a directory that exists is fine, a file there is 'exists'. */
  mkdir(path: string): Promise<void>;
  /** A directory needs `recursive` unless empty ('not_empty'). The root cannot be removed. */
  remove(path: string, opts?: { recursive?: boolean }): Promise<void>;
  /** Files and directories; overwrite default false → 'exists'. Creates the destination's parents. */
  move(from: string, to: string, opts?: { overwrite?: boolean }): Promise<void>;
  /** Server-side copy of a file or directory; overwrite default false → 'exists'. Else vfs streams read → write. */
  copy?(from: string, to: string, opts?: { overwrite?: boolean }): Promise<void>;
  /** Short-lived URL for the client to GET or PUT directly. Absent on local (the server proxies). */
  presign?(path: string, op: 'get' | 'put', ttlSeconds: number, opts?: PresignOptions): Promise<string>;
  multipart?: MultipartCapability;
  /** Removes temp files of writes a crash left behind, last changed before `olderThan` (local); their paths. */
  sweepTemp?(olderThan: Date): Promise<string[]>;
  /** Releases sockets / handles. */
  close?(): Promise<void>;
  /** Sets a file's modification time (local: utimes); answers the entry. Absent where the backend cannot. */
  setModified?(path: string, at: Date): Promise<Entry>;
  /**
   * Where a path really lands, as a driver path: every symbolic link on the way resolved (the missing rest of
   * a path to be created appended). 'invalid_path' when it leaves the root. Absent where there are no links.
   */
  realPath?(path: string): Promise<string>;
  /** The file system holding the root (local: statfs): one syscall, never a walk. Absent where unknown (S3). */
  space?(): Promise<StorageSpace>;
}

/** The size of the file system holding a driver's root; `volume` names it (two roots on one disk share it). */
export interface StorageSpace {
  totalBytes: number;
  usedBytes: number;
  /** Free for this process (statfs `bavail`: without the blocks reserved for root). */
  freeBytes: number;
  volume: string;
}
