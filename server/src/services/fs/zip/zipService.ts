// The file basket's pack download: files and folders from any mounts in one streamed zip (zipStream.ts).
// Every path goes through the vfs (MOUNT_VIEW, the key's basic_path), folders are walked there, and the
// whole list is known before the first byte, so the answer has an exact Content-Length.
import { randomBytes } from 'node:crypto';
import { Permission, type ZipRequest } from '@clipnest/contract';
import { AppError } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { Vfs } from '../../../vfs/vfs.js';
import { creatorId, type Principal } from '../../../auth/principal.js';
import { walkFolder } from '../tasks/walk.js';
import { ZIP_LIMITS, streamZip, zipEntryName, zipLength, type ZipSource } from './zipStream.js';

/** How long a download link of POST /api/fs/zip/link works. */
export const ZIP_LINK_TTL_MS = 5 * 60_000;
const MAX_LINKS = 1000;

export interface PreparedZip {
  filename: string;
  length: number;
  open(): ReadableStream<Uint8Array>;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `name (2).ext` for the second entry called `name.ext`. */
function unique(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  const slash = name.lastIndexOf('/');
  const dot = name.lastIndexOf('.');
  const cut = dot > slash + 1 ? dot : name.length;
  for (let n = 2; ; n++) {
    const candidate = `${name.slice(0, cut)} (${n})${name.slice(cut)}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export function archiveName(requested: string | undefined, paths: readonly string[]): string {
  const first = paths.length === 1 && paths[0] ? baseName(paths[0]) : '';
  const base = zipEntryName([requested ?? first]).replaceAll('/', '_') || 'download';
  const named = base.toLowerCase().endsWith('.zip') ? base : `${base}.zip`;
  return named.length > ZIP_LIMITS.maxArchiveNameChars
    ? `${named.slice(0, ZIP_LIMITS.maxArchiveNameChars - 4)}.zip`
    : named;
}

export class ZipService {
  /** Open links: who asked (`created_by` form, looked up again at use) and what. */
  private readonly links = new Map<string, { issuer: string; input: ZipRequest; expiresAt: number }>();

  constructor(
    private readonly deps: {
      vfs: Vfs;
      clock: Clock;
      /** The admin or key behind a `created_by` value as it is now (undefined: deleted, disabled or expired). */
      principalOf: (createdBy: string) => Promise<Principal | undefined>;
    },
  ) {}

  /** Checks every path and walks the folders; the bytes are read only when `open()`'s stream is read. */
  async prepare(principal: Principal, input: ZipRequest): Promise<PreparedZip> {
    const { vfs } = this.deps;
    const entries: ZipSource[] = [];
    const taken = new Set<string>();
    const counted = { n: 0 };
    const add = (name: string, source: Omit<ZipSource, 'name'>, path: string) => {
      const unique_ = unique(name, taken);
      if (Buffer.byteLength(unique_) > ZIP_LIMITS.maxNameBytes)
        throw AppError.validation(`${path}: its name in the zip is longer than ${ZIP_LIMITS.maxNameBytes} bytes`);
      taken.add(unique_);
      entries.push({ name: unique_, ...source });
    };
    const fileSource = (path: string, size: number, lastModified?: string): Omit<ZipSource, 'name'> => ({
      isDir: false,
      size,
      ...(lastModified ? { lastModified: new Date(lastModified) } : {}),
      open: async (signal) => (await vfs.read(principal, path, { signal })).result.stream,
    });
    for (const [i, raw] of input.paths.entries()) {
      const path = vfs.normalise(raw, `paths.${i}`);
      const entry = await vfs.stat(principal, path, Permission.MOUNT_VIEW);
      const top = zipEntryName([baseName(path)]) || 'root';
      if (++counted.n > ZIP_LIMITS.maxEntries) throw this.tooMany();
      if (!entry.isDir) {
        add(top, fileSource(path, entry.size, entry.lastModified), path);
        continue;
      }
      const folder = unique(top, taken);
      add(folder, { isDir: true, size: 0 }, path);
      const below = await walkFolder(
        vfs,
        principal,
        path,
        { maxEntries: ZIP_LIMITS.maxEntries, what: 'a zip' },
        counted,
      );
      for (const child of below) {
        const name = zipEntryName([folder, child.path.slice(path.length)]);
        add(
          name,
          child.isDir ? { isDir: true, size: 0 } : fileSource(child.path, child.size, child.lastModified),
          child.path,
        );
      }
    }
    return {
      filename: archiveName(input.name, input.paths),
      length: zipLength(entries),
      open: () => streamZip(entries),
    };
  }

  /**
   * A short-lived link (GET /api/fs/zip/{token}) so a browser downloads the zip natively. The token holds the
   * request and the caller's id in this process's memory for ZIP_LINK_TTL_MS; paths are checked now and again
   * when the link is used, as the caller is then (a key deleted or disabled since: 403; its current
   * permissions and base path decide).
   */
  async link(principal: Principal, input: ZipRequest): Promise<{ token: string; expires_at: string }> {
    await this.prepare(principal, input);
    const now = this.deps.clock.now().getTime();
    for (const [token, link] of this.links) if (link.expiresAt <= now) this.links.delete(token);
    if (this.links.size >= MAX_LINKS)
      throw new AppError('RATE_LIMITED', 'too many zip links are open, try again shortly');
    const token = randomBytes(24).toString('base64url');
    const expiresAt = now + ZIP_LINK_TTL_MS;
    this.links.set(token, { issuer: creatorId(principal), input, expiresAt });
    return { token, expires_at: new Date(expiresAt).toISOString() };
  }

  async fromLink(token: string): Promise<PreparedZip> {
    const link = this.links.get(token);
    if (!link || link.expiresAt <= this.deps.clock.now().getTime()) {
      this.links.delete(token);
      throw new AppError('GONE', 'this zip link has expired: request a new one');
    }
    const principal = await this.deps.principalOf(link.issuer);
    if (!principal) {
      this.links.delete(token);
      throw AppError.forbidden('this zip link no longer works: the API key that asked for it was disabled or deleted');
    }
    return this.prepare(principal, link.input);
  }

  private tooMany(): AppError {
    return new AppError('PAYLOAD_TOO_LARGE', `a zip holds at most ${ZIP_LIMITS.maxEntries} files and folders`);
  }
}
