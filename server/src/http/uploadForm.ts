/**
 * The one multipart/form-data upload parser at the HTTP edge (POST /api/upload, POST /api/fs/upload, …).
 *
 * Fields may sit anywhere in the form (curl, ShareX and most scripts send the file first):
 * - when every `locationFields` name came before the file part, the file streams straight through
 *   (`form.file.spooled === false`); fields after the file arrive in `await form.complete()`;
 * - otherwise the file part is spooled (streamed, memory flat) to a temp file under `spoolDir` and the
 *   handler runs once the whole form is read: `form.fields` then already holds every field.
 * Unknown field names, a second file part, a field given twice or a broken body are a 400 naming the field.
 *
 * Use:
 * ```ts
 * const view = await withUploadForm(c, { fields: ['path', 'use_multipart'], locationFields: ['path'],
 *   spoolDir }, async (form) => {
 *   const early = parse(form.fields);                  // what decides where the bytes go
 *   const stored = await service.store(early, form.file.body);
 *   const all = parse(await form.complete());          // every field: validate before writing any row
 *   return service.commit(stored, all);                // on a throw, remove what `store` wrote
 * });
 * ```
 * Guarantees: the spooled temp file is removed and the rest of the request body is drained on every
 * outcome (so the client reads the answer); when the handler throws while reading the live file, the
 * file stream is destroyed. The handler must read `form.file.body` to its end (or throw) and call
 * `form.complete()` before it commits anything.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'hono';
import { AppError } from '../errors.js';
import { nodeRequestBody } from './requestBody.js';

/** Spooled file parts are named `upload-<random>.tmp` in the spool dir (the temp sweep removes old ones). */
export const SPOOL_FILE_PATTERN = /^upload-[0-9a-f]{24}\.tmp$/;
/** Spooled files of uploads in progress in this process: the sweep leaves them alone however old. */
const inUse = new Set<string>();

export interface UploadFormOptions {
  /** Name of the file part (default `file`). */
  fileField?: string;
  /** Every text field the route accepts; any other name is a 400 naming it. */
  fields: readonly string[];
  /** Fields that decide where the bytes go: unless all of them came before the file, the file is spooled. */
  locationFields: readonly string[];
  /** Directory for spooled file parts (created when needed). */
  spoolDir: string;
  /** Largest file spooled; above it the upload fails with `tooLarge()` (a 413 by default). */
  maxFileBytes?: number;
  tooLarge?: () => Error;
  /**
   * Accept up to this many more file parts after the first (bundles): each is spooled under `spoolDir`
   * (at most `maxFileBytes`) and handed out by `form.extraFiles()`. Absent: a second file part is a 400.
   */
  extraFiles?: number;
}

export interface UploadFormFile {
  /** File name the part carried ('' when none). */
  filename: string;
  /** Content type the part carried. */
  mimeType: string;
  /** The bytes: the live request stream, or a read stream of the spooled copy. Read it once, to its end. */
  body: Readable;
  spooled: boolean;
  /** Exact size in bytes when spooled. */
  size?: number;
  /** The spooled copy (removed when the handler is done), to read again. */
  spoolPath?: string;
}

export interface UploadForm {
  /** Text fields known when the handler starts: all of them when spooled, else those before the file. */
  fields: Record<string, string>;
  file: UploadFormFile;
  /** Every text field of the form, once the body has ended; rejects with a 400 for a bad field or body. */
  complete(): Promise<Record<string, string>>;
  /** The file parts after the first (spooled, sizes exact), once the body has ended; [] unless `extraFiles`. */
  extraFiles(): Promise<UploadFormFile[]>;
}

type FileStream = Readable & { truncated?: boolean };

function fieldError(name: string, message: string): AppError {
  return AppError.validation(`${name}: ${message}`, [{ path: name, message }]);
}

const missingFile = (name: string) => fieldError(name, 'select a file to upload');

/** Counts bytes and fails above a limit (spooling only: the storage write has its own meter). */
function limitStream(maxBytes: number | undefined, tooLarge: () => Error): Transform & { bytes: number } {
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      meter.bytes += chunk.length;
      if (maxBytes !== undefined && meter.bytes > maxBytes) callback(tooLarge());
      else callback(null, chunk);
    },
  }) as Transform & { bytes: number };
  meter.bytes = 0;
  return meter;
}

/**
 * Parses the request's multipart body and runs `handle` with its fields and file; see the file comment.
 * Answers what `handle` answers; rejects with a 400/413/415 AppError for a bad form.
 */
export async function withUploadForm<T>(
  c: Context,
  options: UploadFormOptions,
  handle: (form: UploadForm) => Promise<T>,
): Promise<T> {
  const fileField = options.fileField ?? 'file';
  const allowed = new Set(options.fields);
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `expected multipart/form-data, got ${contentType || 'none'}`);
  }
  const source = nodeRequestBody(c);
  if (!source) throw missingFile(fileField);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: {
        files: 2 + (options.extraFiles ?? 0),
        fields: 50,
        fieldSize: 64 * 1024,
        parts: 60 + (options.extraFiles ?? 0),
        fieldNameSize: 200,
      },
    });
  } catch (error) {
    throw AppError.validation(`malformed multipart body: ${(error as Error).message}`);
  }

  const fields: Record<string, string> = {};
  let formError: Error | undefined;
  let fileStream: FileStream | undefined;
  let spoolPath: string | undefined;
  let spoolRead: Readable | undefined;
  let ended = false;
  // File parts after the first (options.extraFiles): spooled as they arrive.
  const extras: Promise<UploadFormFile>[] = [];
  const extraPaths: string[] = [];
  const extraStreams: FileStream[] = [];
  const tooLarge = options.tooLarge ?? (() => new AppError('PAYLOAD_TOO_LARGE', 'the file is too large'));
  const spoolExtra = async (stream: FileStream, filename: string, mimeType: string) => {
    await fs.mkdir(options.spoolDir, { recursive: true });
    const spoolPath = path.join(options.spoolDir, `upload-${randomBytes(12).toString('hex')}.tmp`);
    inUse.add(spoolPath);
    extraPaths.push(spoolPath);
    const meter = limitStream(options.maxFileBytes, tooLarge);
    const handle = await fs.open(spoolPath, 'wx');
    await pipeline(stream, meter, handle.createWriteStream());
    return { filename, mimeType, body: await openSpooled(spoolPath), spooled: true, size: meter.bytes, spoolPath };
  };

  // Settles when the form has been read to its end (or failed).
  let settleForm!: (error?: Error) => void;
  const formDone = new Promise<void>((resolve, reject) => {
    settleForm = (error) => {
      if (error && !formError) formError = error;
      if (formError) reject(formError);
      else resolve();
    };
  });
  formDone.catch(() => undefined);
  // Settles with the file part (or the error that came first).
  let settleFile!: (value: { stream: FileStream; filename: string; mimeType: string } | Error) => void;
  const fileReady = new Promise<{ stream: FileStream; filename: string; mimeType: string }>((resolve, reject) => {
    settleFile = (value) => (value instanceof Error ? reject(value) : resolve(value));
  });
  fileReady.catch(() => undefined);

  const fail = (error: Error) => {
    if (!formError) formError = error;
    settleFile(error);
    settleForm(error);
    // The file's reader sees the error too (a driver write stops and removes its temp file).
    fileStream?.destroy(error);
    for (const extra of extraStreams) extra.destroy(error);
  };

  parser.on('field', (name, value, info) => {
    if (name === fileField) return fail(fieldError(name, 'must be a file part'));
    if (!allowed.has(name)) return fail(fieldError(name, 'unknown field'));
    if (info.valueTruncated) return fail(fieldError(name, 'is too long'));
    if (Object.hasOwn(fields, name)) return fail(fieldError(name, 'given more than once'));
    fields[name] = value;
  });
  parser.on('file', (name, stream: FileStream, info) => {
    // Errors reach the reader through the stream; this keeps a late one from going unhandled.
    stream.on('error', () => undefined);
    if (name !== fileField) {
      stream.resume();
      return fail(fieldError(name, allowed.has(name) ? 'must be a text field' : 'unknown field'));
    }
    if (fileStream && options.extraFiles) {
      extraStreams.push(stream);
      const spooled = spoolExtra(stream, info.filename ?? '', info.mimeType);
      spooled.catch((error: unknown) => {
        stream.resume();
        fail(error instanceof Error ? error : new Error(String(error)));
      });
      extras.push(spooled);
      return;
    }
    if (fileStream) {
      stream.resume();
      return fail(fieldError(name, 'only one file per upload'));
    }
    fileStream = stream;
    settleFile({ stream, filename: info.filename ?? '', mimeType: info.mimeType });
  });
  parser.on('partsLimit', () => fail(AppError.validation('too many form fields')));
  parser.on('fieldsLimit', () => fail(AppError.validation('too many form fields')));
  parser.on('filesLimit', () =>
    fail(
      fieldError(
        fileField,
        options.extraFiles ? `at most ${options.extraFiles + 1} files per upload` : 'only one file per upload',
      ),
    ),
  );
  parser.on('error', (error: Error) => fail(AppError.validation(`malformed multipart body: ${error.message}`)));
  parser.on('close', () => {
    ended = true;
    if (!fileStream) return fail(missingFile(fileField));
    settleForm();
  });
  source.on('error', (error) => fail(AppError.validation(`upload interrupted: ${error.message}`)));
  source.on('close', () => {
    if (!source.readableEnded) fail(AppError.validation('upload interrupted: the connection was closed'));
  });
  source.pipe(parser);
  const extraFiles = async (): Promise<UploadFormFile[]> => {
    await formDone;
    return Promise.all(extras);
  };

  try {
    const part = await fileReady;
    const live = options.locationFields.every((name) => Object.hasOwn(fields, name));
    let form: UploadForm;
    if (live) {
      form = {
        fields: { ...fields },
        file: { filename: part.filename, mimeType: part.mimeType, body: part.stream, spooled: false },
        complete: () => formDone.then(() => ({ ...fields })),
        extraFiles,
      };
    } else {
      await fs.mkdir(options.spoolDir, { recursive: true });
      spoolPath = path.join(options.spoolDir, `upload-${randomBytes(12).toString('hex')}.tmp`);
      inUse.add(spoolPath);
      const meter = limitStream(
        options.maxFileBytes,
        options.tooLarge ?? (() => new AppError('PAYLOAD_TOO_LARGE', 'the file is too large')),
      );
      // Opened before the pipeline starts, so the file exists (and is removed below) whatever happens next.
      const handle = await fs.open(spoolPath, 'wx');
      await pipeline(part.stream, meter, handle.createWriteStream()).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        throw new AppError('QUOTA_EXCEEDED', 'insufficient storage: no space left for the upload on the server');
      });
      await formDone;
      spoolRead = await openSpooled(spoolPath);
      form = {
        fields: { ...fields },
        file: {
          filename: part.filename,
          mimeType: part.mimeType,
          body: spoolRead,
          spooled: true,
          size: meter.bytes,
          spoolPath,
        },
        complete: () => Promise.resolve({ ...fields }),
        extraFiles,
      };
    }
    return await handle(form);
  } catch (error) {
    // A form error is the cause; what the reader threw because of it (a destroyed stream) is not.
    const cause = formError ?? error;
    if (!ended) fileStream?.destroy(cause instanceof Error ? cause : new Error(String(cause)));
    throw cause;
  } finally {
    spoolRead?.destroy();
    for (const extra of await Promise.allSettled(extras)) {
      if (extra.status === 'fulfilled') extra.value.body.destroy();
    }
    for (const extraPath of extraPaths) {
      await fs.rm(extraPath, { force: true }).catch(() => undefined);
      inUse.delete(extraPath);
    }
    if (spoolPath) {
      await fs.rm(spoolPath, { force: true }).catch(() => undefined);
      inUse.delete(spoolPath);
    }
    if (!ended) {
      // Discard the rest of the body so the client can read the answer.
      source.unpipe(parser);
      source.on('error', () => undefined);
      source.resume();
    }
  }
}

/**
 * A reader of a spooled file, its file opened before it is handed out: a read stream opens lazily, and a failed
 * open (the file or its folder gone) was then an 'error' with no listener yet, an uncaught exception.
 */
async function openSpooled(spoolPath: string): Promise<Readable> {
  return (await fs.open(spoolPath, 'r')).createReadStream();
}

/** Removes spooled file parts last written before `olderThan` (left by a crash); answers their names. */
export async function sweepSpoolDir(spoolDir: string, olderThan: Date): Promise<string[]> {
  let names: string[];
  try {
    names = (await fs.readdir(spoolDir)).filter((name) => SPOOL_FILE_PATTERN.test(name));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const file = path.join(spoolDir, name);
    if (inUse.has(file)) continue;
    const st = await fs.stat(file).catch(() => null);
    if (st && st.mtimeMs < olderThan.getTime()) {
      await fs.rm(file, { force: true });
      removed.push(name);
    }
  }
  return removed;
}

export function uploadSpoolDir(dataDir: string): string {
  return path.join(dataDir, 'tmp', 'uploads');
}
