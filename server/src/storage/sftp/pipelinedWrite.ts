// A pipelined SFTP file writer. ssh2's createWriteStream waits for the server's answer to each WRITE before it sends
// the next one (and sends the pieces of a large chunk one after another), so an upload runs at one request per round
// trip. Like OpenSSH's own client, this one keeps many WRITE requests in flight: each chunk is cut into 32 KiB
// requests sent at once, and the stream only pushes back (stops taking chunks) while WINDOW bytes are unanswered.
// Memory stays bounded by WINDOW plus the Writable's own buffer.
import { Writable } from 'node:stream';
import type { SFTPWrapper } from 'ssh2';

/** Bytes per WRITE request: the size every SFTP server must accept. */
const REQUEST_BYTES = 32 * 1024;
/** Unanswered bytes at most (OpenSSH's client keeps 64 × 32 KiB in flight by default). */
const WINDOW = 64 * REQUEST_BYTES;

export class PipelinedSftpWrite extends Writable {
  private handle: Buffer | undefined;
  private position = 0;
  private inFlight = 0;
  private failure: Error | undefined;
  private waiting: (() => void) | undefined;

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly remotePath: string,
    private readonly mode: number,
  ) {
    super({ highWaterMark: 256 * 1024 });
  }

  override _construct(callback: (error?: Error | null) => void): void {
    this.sftp.open(this.remotePath, 'w', { mode: this.mode }, (err, handle) => {
      if (err) return callback(err);
      this.handle = handle;
      callback();
    });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.failure) return callback(this.failure);
    const handle = this.handle!;
    for (let offset = 0; offset < chunk.length; offset += REQUEST_BYTES) {
      const length = Math.min(REQUEST_BYTES, chunk.length - offset);
      this.inFlight += length;
      this.sftp.write(handle, chunk, offset, length, this.position, (err) => {
        this.inFlight -= length;
        if (err && !this.failure) this.failure = err;
        this.wake();
      });
      this.position += length;
    }
    if (this.inFlight < WINDOW) callback();
    else this.waiting = () => callback(this.failure);
  }

  override _final(callback: (error?: Error | null) => void): void {
    const close = () => {
      if (this.failure) return callback(this.failure);
      const handle = this.handle!;
      this.handle = undefined;
      this.sftp.close(handle, (err) => callback(err ?? null));
    };
    if (this.inFlight === 0 || this.failure) close();
    else this.waiting = close;
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    if (!handle) return callback(error);
    this.sftp.close(handle, () => callback(error));
  }

  /** Lets a waiting write (or the final flush) go on once the window has room, everything is answered, or it failed. */
  private wake(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    const finalFlush = this.writableEnded;
    if (this.failure || (finalFlush ? this.inFlight === 0 : this.inFlight < WINDOW)) {
      this.waiting = undefined;
      waiting();
    }
  }
}
