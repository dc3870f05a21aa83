import { Readable } from 'node:stream';
import { nodeFromWeb } from '../../../storage/streams.js';

/** A file read by byte ranges (a vfs file, a share's object): what archive readers need, nothing more. */
export interface RangeSource {
  readonly size: number;
  /** Bytes `start` to `end`, end exclusive. */
  read(start: number, end: number, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>>;
}

/** Small reads (headers, the central directory) are served from one window of this size, read at once. */
export const RANGE_WINDOW_BYTES = 1024 * 1024;

/**
 * Serves many small reads from few storage round trips: a read that fits in the current window is answered
 * from memory; another small read loads the window starting at it; a large read (file data) is streamed.
 */
export class WindowedReader {
  private window: { start: number; bytes: Buffer } | undefined;

  constructor(
    private readonly source: RangeSource,
    private readonly signal?: AbortSignal,
  ) {}

  async stream(start: number, end: number): Promise<Readable> {
    if (end - start > RANGE_WINDOW_BYTES) {
      return nodeFromWeb(await this.source.read(start, end, this.signal));
    }
    return Readable.from([await this.bytes(start, end)]);
  }

  async bytes(start: number, end: number): Promise<Buffer> {
    const hit = this.window;
    if (hit && start >= hit.start && end <= hit.start + hit.bytes.length) {
      return hit.bytes.subarray(start - hit.start, end - hit.start);
    }
    const windowEnd = Math.min(this.source.size, Math.max(end, start + RANGE_WINDOW_BYTES));
    const bytes = Buffer.from(await new Response(await this.source.read(start, windowEnd, this.signal)).arrayBuffer());
    this.window = { start, bytes };
    return bytes.subarray(0, end - start);
  }
}
