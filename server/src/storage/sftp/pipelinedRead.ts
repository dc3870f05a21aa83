// A pipelined SFTP file reader, the twin of pipelinedWrite.ts. ssh2's createReadStream sends one READ and waits for
// its answer before the next, so a download runs at one request per round trip. This one keeps up to WINDOW bytes
// of READ requests in flight and hands their answers on in file order. A short answer (allowed by the protocol) is
// followed by a request for the rest; an empty one is the end of the file. Requests stop while the reader is full
// (push() said no), so memory stays bounded by WINDOW plus the Readable's own buffer.
import { Readable } from 'node:stream';
import type { SFTPWrapper } from 'ssh2';

/** Bytes per READ request (ssh2 cuts larger ones to what the server allows). */
const REQUEST_BYTES = 64 * 1024;
/** Bytes asked for and not yet handed on, at most. */
const WINDOW = 32 * REQUEST_BYTES;

interface Request {
  offset: number;
  length: number;
  data?: Buffer;
  done: boolean;
}

export class PipelinedSftpRead extends Readable {
  private handle: Buffer | undefined;
  /** Requests in file order; answers are handed on from the front. */
  private readonly queue: Request[] = [];
  private next: number;
  /** Bytes asked for and not handed on yet (in flight, or answered behind one still in flight). */
  private outstanding = 0;
  private wanting = false;
  private ended = false;

  /** Reads [start, end) of the file; `end` is the size known from a stat (the file may still end sooner). */
  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly remotePath: string,
    start: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: 1024 * 1024 });
    this.next = start;
  }

  override _construct(callback: (error?: Error | null) => void): void {
    this.sftp.open(this.remotePath, 'r', (err, handle) => {
      if (err) return callback(err);
      this.handle = handle;
      callback();
    });
  }

  override _read(): void {
    this.wanting = true;
    this.flush();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.ended = true;
    const handle = this.handle;
    this.handle = undefined;
    if (!handle) return callback(error);
    this.sftp.close(handle, () => callback(error));
  }

  private fill(): void {
    while (this.wanting && !this.ended && this.outstanding < WINDOW && this.next < this.end) {
      const length = Math.min(REQUEST_BYTES, this.end - this.next);
      const request: Request = { offset: this.next, length, done: false };
      this.next += length;
      this.outstanding += length;
      this.queue.push(request);
      this.send(request);
    }
  }

  private send(request: Request): void {
    const handle = this.handle;
    if (!handle) return;
    this.sftp.read(
      handle,
      Buffer.allocUnsafe(request.length),
      0,
      request.length,
      request.offset,
      (err, bytes, data) => {
        if (this.ended) return;
        if (err) return this.destroy(err);
        if (bytes > 0 && bytes < request.length) {
          // A short answer: the rest becomes a request of its own, right behind this one (its bytes are already
          // counted in `outstanding`).
          const rest: Request = { offset: request.offset + bytes, length: request.length - bytes, done: false };
          request.length = bytes;
          this.queue.splice(this.queue.indexOf(request) + 1, 0, rest);
          this.send(rest);
        }
        request.data = bytes > 0 ? data.subarray(0, bytes) : undefined;
        request.done = true;
        this.flush();
      },
    );
  }

  /** Hands on every answered request at the front of the queue, in order. */
  private flush(): void {
    while (this.queue.length > 0 && this.queue[0]!.done && !this.ended) {
      const request = this.queue.shift()!;
      this.outstanding -= request.length;
      if (!request.data) {
        // The file ended before the size we were given: stop here.
        this.ended = true;
        this.queue.length = 0;
        this.push(null);
        return;
      }
      if (!this.push(request.data)) this.wanting = false;
    }
    if (this.queue.length === 0 && this.next >= this.end && !this.ended) {
      this.ended = true;
      this.push(null);
      return;
    }
    this.fill();
  }
}
