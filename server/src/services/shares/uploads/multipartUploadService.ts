// Resumable multipart uploads straight to the storage: init, sign parts, record or proxy parts, status,
// complete. Sessions, the share's fields and the commit are DirectUploadService's (shared with presign).
import { createHash } from 'node:crypto';
import type {
  FileView,
  MultipartInitResult,
  MultipartStatus,
  SignPartsResult,
  UploadedPartView,
} from '@clipnest/contract';
import { MULTIPART_PART_SIZE } from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import { newId } from '../../../lib/ids.js';
import type { UploadSessionRepository, UploadSessionRow } from '../../../repositories/uploadSessionRepository.js';
import { isStorageError, type StorageDriver, type UploadedPart } from '../../../storage/types.js';
import type { DirectUploadInput, DirectUploadService } from './directUploadService.js';
import type { FileUploadService } from './fileUploadService.js';
import { unquoteEtag as unquote } from '../../../security/inlineContent.js';
import { creatorId, type Principal } from '../../../auth/principal.js';
import { storageToAppError } from '../../../vfs/errors.js';

const MiB = 1024 * 1024;
/** Presigned URLs for parts are short-lived: they are signed just before each PUT. */
export const PART_URL_TTL_S = 15 * 60;
/** A session's updated_at (what the 24 h sweep looks at) is written at most this often. */
const TOUCH_INTERVAL_MS = 60_000;

/** A part the client PUT to a presigned URL and reports with its ETag. */
export interface ReportedPart {
  partNumber: number;
  etag: string;
  size?: number;
}

function quote(etag: string): string {
  return `"${unquote(etag)}"`;
}

/** The S3 ETag of an object joined from parts with these (MD5) ETags, or null when one is not an MD5. */
export function multipartEtag(partEtags: string[]): string | null {
  const digests: Buffer[] = [];
  for (const etag of partEtags) {
    const hex = unquote(etag);
    if (!/^[0-9a-f]{32}$/i.test(hex)) return null;
    digests.push(Buffer.from(hex, 'hex'));
  }
  return `${createHash('md5').update(Buffer.concat(digests)).digest('hex')}-${partEtags.length}`;
}

function missingEtag(parts: number[]): AppError {
  const list = parts.length > 10 ? `${parts.slice(0, 10).join(', ')}, …` : parts.join(', ');
  return AppError.validation(`no ETag obtained for part(s) ${list}: upload them before completing`, [
    { path: 'parts', message: 'no ETag obtained' },
  ]);
}

export class MultipartUploadService {
  constructor(
    private readonly deps: {
      sessions: UploadSessionRepository;
      uploads: FileUploadService;
      direct: DirectUploadService;
    },
  ) {}

  async initMultipart(
    principal: Principal,
    input: DirectUploadInput,
    sourceUrl?: string,
  ): Promise<MultipartInitResult> {
    const plan = await this.deps.uploads.planDirectUpload(input, input.filename, input.size);
    const mp = plan.driver.multipart;
    if (!mp) throw AppError.validation('this storage does not support multipart uploads');
    let partSize = Math.max(input.part_size ?? MULTIPART_PART_SIZE, mp.minPartSize);
    if (Math.ceil(input.size / partSize) > mp.maxParts) partSize = Math.ceil(input.size / mp.maxParts / MiB) * MiB;
    const partCount = Math.max(1, Math.ceil(input.size / partSize));
    let uploadId: string;
    try {
      ({ uploadId } = await mp.start(plan.storagePath, { contentType: plan.mimetype, overwrite: false }));
    } catch (error) {
      throw storageToAppError(error);
    }
    const id = newId();
    const now = this.deps.direct.now();
    await this.deps.sessions.insert({
      id,
      kind: 'multipart',
      storage_config_id: plan.config.id,
      storage_path: plan.storagePath,
      upload_id: uploadId,
      filename: plan.filename,
      mimetype: plan.mimetype,
      size: input.size,
      part_size: partSize,
      part_count: partCount,
      share_json: await this.deps.direct.shareJson(input),
      source_url: sourceUrl ?? null,
      created_by: creatorId(principal),
      created_at: now,
      updated_at: now,
    });
    return {
      file_id: id,
      upload_id: uploadId,
      uploadId,
      part_size: partSize,
      part_count: partCount,
      storage_path: plan.storagePath,
      slug: input.slug ?? '',
      provider_type: plan.config.storage_type,
      presigned_parts: mp.presignedParts && typeof mp.signPart === 'function',
    };
  }

  private partSizeOf(row: UploadSessionRow, partNumber: number): number {
    if (partNumber < row.part_count) return row.part_size;
    return row.size - row.part_size * (row.part_count - 1);
  }

  private checkPartNumber(row: UploadSessionRow, partNumber: number): void {
    if (partNumber < 1 || partNumber > row.part_count) {
      throw AppError.validation(`part number ${partNumber} is outside 1..${row.part_count}`, [
        { path: 'part_number', message: `must be 1..${row.part_count}` },
      ]);
    }
  }

  private async multipartOf(principal: Principal, fileId: string) {
    const row = await this.deps.direct.requireSession(principal, fileId, 'multipart');
    const driver = await this.deps.direct.driverOf(row);
    const mp = driver.multipart;
    if (!mp || !row.upload_id) throw AppError.validation('this storage does not support multipart uploads');
    return { row, driver, mp, uploadId: row.upload_id };
  }

  /**
   * URLs for the given parts, signed now (retries call again and get fresh ones). `completed` parts
   * (PUT to earlier URLs) are recorded first, so a client needs one call per part.
   */
  async signParts(
    principal: Principal,
    fileId: string,
    partNumbers: number[],
    completed: ReportedPart[] = [],
  ): Promise<SignPartsResult> {
    const { row, mp, uploadId } = await this.multipartOf(principal, fileId);
    const numbers = [...new Set(partNumbers)].sort((a, b) => a - b);
    for (const n of numbers) this.checkPartNumber(row, n);
    const recorded = await this.record(
      row,
      completed.map((p) => this.checkedReport(row, p)),
    );
    const result = (urls: SignPartsResult['urls']): SignPartsResult => ({
      urls,
      expires_in: PART_URL_TTL_S,
      ...(completed.length > 0 ? { recorded } : {}),
    });
    if (mp.presignedParts && mp.signPart) {
      const urls = [];
      for (const n of numbers) {
        try {
          urls.push({
            partNumber: n,
            url: await mp.signPart(row.storage_path, uploadId, n, PART_URL_TTL_S, {
              contentLength: this.partSizeOf(row, n),
            }),
            proxied: false,
          });
        } catch (error) {
          const mapped = storageToAppError(error);
          if (mapped instanceof AppError)
            throw new AppError(mapped.kind, `failed to get presigned URL: ${mapped.message}`);
          throw mapped;
        }
      }
      return result(urls);
    }
    return result(
      numbers.map((n) => ({
        partNumber: n,
        url: `/api/upload/multipart/part?file_id=${encodeURIComponent(row.id)}&part_number=${n}`,
        proxied: true,
      })),
    );
  }

  /** A part streamed through the server (local storage, or when the bucket's CORS blocks the browser). */
  async putPart(
    principal: Principal,
    fileId: string,
    partNumber: number,
    body: ReadableStream<Uint8Array>,
    signal?: AbortSignal,
  ): Promise<{ PartNumber: number; ETag: string; size: number }> {
    const { row, mp, uploadId } = await this.multipartOf(principal, fileId);
    this.checkPartNumber(row, partNumber);
    const expected = this.partSizeOf(row, partNumber);
    let part: UploadedPart;
    try {
      part = await mp.uploadPart(row.storage_path, uploadId, partNumber, body, { size: expected, signal });
    } catch (error) {
      if (isStorageError(error, 'size_mismatch') || isStorageError(error, 'too_large')) {
        throw AppError.validation(`part ${partNumber} must be exactly ${expected} bytes`);
      }
      if (isStorageError(error, 'not_found')) throw AppError.validation('upload aborted');
      throw storageToAppError(error);
    }
    await this.record(row, [{ partNumber, etag: part.etag, size: part.size }]);
    return { PartNumber: partNumber, ETag: part.etag, size: part.size };
  }

  /** A reported part with its size: refused when the number, the size or the ETag is wrong. */
  private checkedReport(row: UploadSessionRow, part: ReportedPart): { partNumber: number; etag: string; size: number } {
    this.checkPartNumber(row, part.partNumber);
    const expected = this.partSizeOf(row, part.partNumber);
    if (part.size !== undefined && part.size !== expected) {
      throw AppError.validation(`part ${part.partNumber} must be ${expected} bytes, not ${part.size}`);
    }
    if (unquote(part.etag) === '') throw missingEtag([part.partNumber]);
    return { partNumber: part.partNumber, etag: part.etag, size: expected };
  }

  /** Records parts and keeps the session alive; answers them as the API shows them. */
  private async record(
    row: UploadSessionRow,
    parts: Array<{ partNumber: number; etag: string; size: number }>,
  ): Promise<UploadedPartView[]> {
    const now = this.deps.direct.now();
    // One row per part number (the last report wins): an upsert may not touch a row twice.
    const unique = [...new Map(parts.map((p) => [p.partNumber, p])).values()];
    await this.deps.sessions.recordParts(
      unique.map((p) => ({
        session_id: row.id,
        part_number: p.partNumber,
        etag: quote(p.etag),
        size: p.size,
        created_at: now,
      })),
    );
    // Every call of an upload in progress lands here; one write a minute is enough for the 24 h sweep.
    if (Date.parse(now) - Date.parse(row.updated_at) >= TOUCH_INTERVAL_MS) await this.deps.sessions.touch(row.id, now);
    return unique.map((p) => ({ PartNumber: p.partNumber, ETag: quote(p.etag), size: p.size }));
  }

  /** The client reports a part it PUT to a presigned URL (the ETag header of the PUT's answer). */
  async recordPart(
    principal: Principal,
    input: { file_id: string; part_number: number; etag: string; size?: number },
  ): Promise<UploadedPartView> {
    const { row } = await this.multipartOf(principal, input.file_id);
    const [recorded] = await this.record(row, [
      this.checkedReport(row, { partNumber: input.part_number, etag: input.etag, size: input.size }),
    ]);
    return recorded!;
  }

  /** Parts recorded (merged with ListParts where the backend has it) and the ones still missing. */
  async status(principal: Principal, fileId: string): Promise<MultipartStatus> {
    const { row, mp, uploadId } = await this.multipartOf(principal, fileId);
    const parts = new Map<number, { etag: string; size: number }>();
    for (const p of await this.deps.sessions.parts(row.id)) parts.set(p.part_number, { etag: p.etag, size: p.size });
    const listed = await this.backendParts(row, mp, uploadId);
    if (listed) {
      // The backend is the truth: parts it lacks were not stored; parts it has but we did not record
      // (the tab closed between the PUT and the report) count too.
      for (const n of [...parts.keys()]) if (!listed.has(n)) parts.delete(n);
      for (const [n, p] of listed) {
        if (n <= row.part_count && p.size === this.partSizeOf(row, n)) parts.set(n, { etag: p.etag, size: p.size });
      }
    }
    const missing: number[] = [];
    for (let n = 1; n <= row.part_count; n++) if (!parts.has(n)) missing.push(n);
    return {
      file_id: row.id,
      upload_id: uploadId,
      filename: row.filename,
      size: row.size,
      part_size: row.part_size,
      part_count: row.part_count,
      presigned_parts: mp.presignedParts && typeof mp.signPart === 'function',
      parts: [...parts.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([n, p]) => ({ PartNumber: n, ETag: quote(p.etag), size: p.size })),
      missing,
    };
  }

  /** ListParts as a map, or null when the backend cannot list parts. */
  private async backendParts(
    row: UploadSessionRow,
    mp: NonNullable<StorageDriver['multipart']>,
    uploadId: string,
  ): Promise<Map<number, UploadedPart> | null> {
    try {
      const parts = await mp.listParts(row.storage_path, uploadId);
      return new Map(parts.map((p) => [p.partNumber, p]));
    } catch (error) {
      if (isStorageError(error, 'unsupported')) return null;
      if (isStorageError(error, 'not_found')) throw AppError.validation('upload aborted');
      throw storageToAppError(error);
    }
  }

  async completeMultipart(
    principal: Principal,
    input: { file_id: string; parts?: Array<{ partNumber: number; etag: string }> },
  ): Promise<FileView> {
    const { row, driver, mp, uploadId } = await this.multipartOf(principal, input.file_id);
    const recorded = new Map((await this.deps.sessions.parts(row.id)).map((p) => [p.part_number, p.etag]));
    const given = new Map<number, string>();
    for (const p of input.parts ?? []) {
      this.checkPartNumber(row, p.partNumber);
      if (unquote(p.etag) === '') throw missingEtag([p.partNumber]);
      const known = recorded.get(p.partNumber);
      if (known !== undefined && unquote(known) !== unquote(p.etag)) {
        throw AppError.validation(`part ${p.partNumber}: the ETag does not match the uploaded part`);
      }
      given.set(p.partNumber, p.etag);
    }
    const listed = await this.backendParts(row, mp, uploadId);
    const parts: Array<{ partNumber: number; etag: string }> = [];
    const missing: number[] = [];
    for (let n = 1; n <= row.part_count; n++) {
      const etag = recorded.get(n) ?? given.get(n) ?? listed?.get(n)?.etag;
      if (!etag) missing.push(n);
      else parts.push({ partNumber: n, etag });
    }
    if (missing.length > 0) throw missingEtag(missing);
    if (listed) {
      for (const p of parts) {
        const stored = listed.get(p.partNumber);
        if (!stored) throw AppError.validation(`part ${p.partNumber} is not in the storage: upload it again`);
        if (unquote(stored.etag) !== unquote(p.etag)) {
          throw AppError.validation(`part ${p.partNumber}: the ETag does not match the uploaded part`);
        }
        if (stored.size !== this.partSizeOf(row, p.partNumber)) {
          throw AppError.validation(
            `part ${p.partNumber} has ${stored.size} bytes, expected ${this.partSizeOf(row, p.partNumber)}`,
          );
        }
      }
    }
    let entry;
    try {
      entry = await mp.complete(row.storage_path, uploadId, parts);
    } catch (error) {
      if (isStorageError(error, 'invalid_part'))
        throw AppError.validation(`some parts failed to upload: ${error.message}`);
      if (isStorageError(error, 'not_found')) throw AppError.validation('upload aborted');
      const mapped = storageToAppError(error);
      // s3rver and some S3-compatibles answer a wrong part ETag with a 400 the driver maps to 'io'.
      if (mapped instanceof AppError && mapped.status >= 500 && /part/i.test((error as Error).message)) {
        throw AppError.validation(`some parts failed to upload: ${(error as Error).message}`);
      }
      throw mapped;
    }
    if (entry.size !== row.size) {
      await driver.remove(row.storage_path).catch(() => undefined);
      await this.deps.sessions.delete(row.id);
      throw AppError.validation(`the joined file has ${entry.size} bytes, but ${row.size} were announced`);
    }
    // Backends that neither list parts nor check ETags at complete (s3rver): the S3 multipart ETag is
    // md5(part md5s)-count, so a wrong recorded ETag shows in the joined object's ETag.
    const expected = multipartEtag(parts.map((p) => p.etag));
    const actual = entry.etag ? unquote(entry.etag) : '';
    if (expected && /^[0-9a-f]{32}-\d+$/i.test(actual) && actual.toLowerCase() !== expected) {
      await driver.remove(row.storage_path).catch(() => undefined);
      await this.deps.sessions.delete(row.id);
      throw AppError.validation('some parts failed to upload: the ETag does not match the uploaded parts');
    }
    return this.deps.direct.finish(principal, row, driver, entry);
  }
}
