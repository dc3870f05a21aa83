// Download streams that are plain byte ranges of an open local file. The HTTP edge can send such a
// stream's bytes with sendfile(2) instead of reading them through JavaScript (see http/sendfileEdge.ts).

export interface FileBodySource {
  /** First byte and byte count of the range the stream carries. */
  start: number;
  length: number;
  /**
   * Hands over the file descriptor if the stream has not been read yet (undefined otherwise); the stream
   * then refuses to be read. Cancel the stream once done with the descriptor: that closes the file.
   */
  claim(): number | undefined;
}

const sources = new WeakMap<ReadableStream<Uint8Array>, FileBodySource>();

export function registerFileBody(stream: ReadableStream<Uint8Array>, source: FileBodySource): void {
  sources.set(stream, source);
}

export function fileBodySource(stream: ReadableStream<Uint8Array>): FileBodySource | undefined {
  return sources.get(stream);
}
