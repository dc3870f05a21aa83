/** A transfer in progress (opaque). */
export type SendfileHandle = { readonly __brand: 'SendfileHandle' };

export interface SendfileBinding {
  /**
   * Copies `length` bytes of `fileFd` from `offset` to `socketFd` with sendfile(2) on a thread of its own.
   * Both descriptors are duplicated first. `done` gets 0 and the byte count, or an errno (ECANCELED after
   * `cancel`, ETIMEDOUT when no byte could be sent for `stallMs`, ENODATA when the file ended early).
   */
  start(
    socketFd: number,
    fileFd: number,
    offset: number,
    length: number,
    stallMs: number,
    done: (errno: number, sent: number) => void,
  ): SendfileHandle;
  cancel(handle: SendfileHandle): void;
}

/** The addon, or null where it is not built (another OS, no compiler at install time). */
export const sendfile: SendfileBinding | null;
/** Why the addon is not there, when it is not. */
export const sendfileLoadError: string | null;

export interface CompressBinding {
  /**
   * Brotli in one call (BrotliEncoderCompress of the brotli inside Node): the byte count written to `output`, or
   * -1 when the encoder failed or `output` is shorter than `brotliBound(input.byteLength)`. `mode`: 0 generic,
   * 1 text, 2 font.
   */
  brotli(input: Uint8Array, output: Uint8Array, quality: number, lgwin: number, mode: number): number;
  /** The output size that always suffices for brotli of `inputSize` bytes (0 when it cannot be bounded). */
  brotliBound(inputSize: number): number;
  /** Gzip with a deflate stream kept per setting: as `brotli`, with `gzipBound`. */
  gzip(input: Uint8Array, output: Uint8Array, level: number, windowBits: number, memLevel: number): number;
  /** The output size that always suffices for gzip of `inputSize` bytes. */
  gzipBound(inputSize: number): number;
}

/** The compression addon, or null where it is not built (then node:zlib compresses). */
export const compress: CompressBinding | null;
/** Why the compression addon is not there, when it is not. */
export const compressLoadError: string | null;
