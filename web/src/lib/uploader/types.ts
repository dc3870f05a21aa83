import type { FileView } from '@clipnest/contract';

/**
 * The uploader abstraction of the upload page. Every way of getting bytes into a share (the plain
 * form upload today; presigned direct-to-S3, resumable multipart and URL uploads later) implements
 * `Uploader` and reports the same stages and progress, so the page and its queue never change.
 */

/** Spec §4 "Upload stages", plus `failed` for the error end state. */
export const UPLOAD_STAGES = [
  'starting',
  'initializing',
  'uploading',
  'processing',
  'completing',
  'completed',
  'cancelled',
  'failed',
] as const;
export type UploadStage = (typeof UPLOAD_STAGES)[number];

export const FINAL_STAGES: ReadonlySet<UploadStage> = new Set(['completed', 'cancelled', 'failed']);

/** Share options as the upload form collects them; a field is sent only when set (spec §5). */
export interface ShareOptions {
  s3_config_id?: string;
  slug?: string;
  path?: string;
  remark?: string;
  password?: string;
  /** Hours; 0 = never. */
  expires_in?: number;
  /** 0 = unlimited. */
  max_views?: number;
  use_proxy?: boolean;
  /** E2eeParams JSON of an end-to-end encrypted file (the bytes are then a CNF1 stream, docs/encryption.md). */
  encryption?: string;
}

export interface UploadProgress {
  stage: UploadStage;
  /** Bytes sent so far. */
  loaded: number;
  total: number;
  /** Bytes per second, smoothed; null until measurable. */
  speed: number | null;
  /** Seconds left at the current speed; null when unknown. */
  etaSeconds: number | null;
}

/** What a finished upload answers: the new share as the server now has it. */
export type UploadResult = FileView;

/**
 * Bytes sent in place of the file's own (an end-to-end encrypted stream), produced part by part while earlier
 * parts upload. Its resumable sessions are told apart from the file's own by `kind`, and resumed only with the
 * same `id` (the same bytes).
 */
export interface UploadSource {
  kind: string;
  /** Identifies these exact bytes: a saved session made for another id is started over. */
  id: string;
  /** Size of the bytes sent. */
  size: number;
  /** Content type sent for them. */
  type: string;
  /** Bytes [start, end). */
  read(start: number, end: number): Promise<Blob>;
  /** The uploader is done with a Blob from `read` (sent, or given up): what it holds can be freed. */
  release?(blob: Blob): void;
  /** Saved with a resumable session (IndexedDB: structured-clone values only) to reopen the same source. */
  state: unknown;
}

export interface UploadTask {
  /** The file picked (with `source`, only its name, size and date are used: to find a saved session). */
  file: File;
  source?: UploadSource;
  /** Name to store under (defaults to file.name; the URL tab lets users rename). */
  filename?: string;
  options: ShareOptions;
  signal: AbortSignal;
  onProgress: (progress: UploadProgress) => void;
}

export type UploaderKind = 'form' | 'presigned' | 'multipart' | 'url';

export interface Uploader {
  readonly kind: UploaderKind;
  upload(task: UploadTask): Promise<UploadResult>;
}

/** Thrown by uploaders; `cancelled` separates a user cancel from a failure. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  readonly status: number;
  readonly cancelled: boolean;
  /** The server's own sentence (English): a detail, never the message. */
  readonly serverMessage: string | undefined;
  constructor(message: string, init: { status?: number; cancelled?: boolean; serverMessage?: string } = {}) {
    super(message);
    this.status = init.status ?? 0;
    this.cancelled = init.cancelled ?? false;
    this.serverMessage = init.serverMessage;
  }
}
