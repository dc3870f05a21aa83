// Reading zips back in tests: whole small archives through yauzl (a maintained reader that validates sizes and
// CRCs), and huge ones as a stream, without storing them.
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';

/** Every entry of a zip held in memory: name → bytes (folders → null). yauzl checks each entry's CRC. */
export async function unzipAll(zip: Buffer): Promise<Map<string, Buffer | null>> {
  const zipfile = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (err, z) =>
      err ? reject(err) : resolve(z),
    ),
  );
  const out = new Map<string, Buffer | null>();
  await new Promise<void>((resolve, reject) => {
    zipfile.on('error', reject);
    zipfile.on('end', () => resolve());
    zipfile.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) {
        out.set(entry.fileName, null);
        zipfile.readEntry();
        return;
      }
      zipfile.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          out.set(entry.fileName, Buffer.concat(chunks));
          zipfile.readEntry();
        });
      });
    });
    zipfile.readEntry();
  });
  return out;
}

export interface CentralEntry {
  name: string;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  method: number;
}

const TAIL_BYTES = 4 * 1024 * 1024;

/**
 * Streams a zip whose first entry is `firstSize` bytes (stored): CRC-32 of that entry's bytes as they pass,
 * the central directory parsed from the kept tail (Zip64 records followed). Memory: the tail only. With
 * `expectedTotal` (the Content-Length) only the tail's chunks are copied.
 */
export async function scanZipStream(
  stream: ReadableStream<Uint8Array>,
  firstSize: number,
  expectedTotal?: number,
): Promise<{ total: number; firstCrc: number; entries: CentralEntry[]; zip64: boolean }> {
  let total = 0;
  let head = Buffer.alloc(0);
  let dataStart = -1;
  let crc = 0;
  const kept: Buffer[] = [];
  let keptBytes = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const at = total;
    total += buf.byteLength;
    if (dataStart < 0) {
      head = Buffer.concat([head, buf]);
      if (head.byteLength >= 30) {
        if (head.readUInt32LE(0) !== 0x04034b50) throw new Error('no local file header at 0');
        dataStart = 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
      }
    }
    if (dataStart >= 0) {
      const from = Math.max(dataStart, at);
      const to = Math.min(dataStart + firstSize, total);
      if (to > from) crc = crc32(buf.subarray(from - at, to - at), crc);
    }
    // Only chunks that reach into the last TAIL_BYTES are kept (all of them when the length is not known), and
    // they are copied: a stream may reuse its buffers.
    if (expectedTotal !== undefined && total <= expectedTotal - TAIL_BYTES) continue;
    kept.push(Buffer.from(buf));
    keptBytes += buf.byteLength;
    while (kept.length > 1 && keptBytes - (kept[0]?.byteLength ?? 0) >= TAIL_BYTES)
      keptBytes -= kept.shift()?.byteLength ?? 0;
  }
  const tail = Buffer.concat(kept);
  const tailStart = total - tail.byteLength;
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('no end of central directory record');
  let count = tail.readUInt16LE(eocd + 10);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  const locator = eocd - 20;
  const zip64 = locator >= 0 && tail.readUInt32LE(locator) === 0x07064b50;
  if (zip64) {
    const record = Number(tail.readBigUInt64LE(locator + 8)) - tailStart;
    if (tail.readUInt32LE(record) !== 0x06064b50) throw new Error('no zip64 end of central directory record');
    count = Number(tail.readBigUInt64LE(record + 32));
    cdOffset = Number(tail.readBigUInt64LE(record + 48));
  }
  const entries: CentralEntry[] = [];
  let p = cdOffset - tailStart;
  for (let i = 0; i < count; i++) {
    if (tail.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const nameLen = tail.readUInt16LE(p + 28);
    const extraLen = tail.readUInt16LE(p + 30);
    const commentLen = tail.readUInt16LE(p + 32);
    const entry: CentralEntry = {
      name: tail.toString('utf8', p + 46, p + 46 + nameLen),
      crc: tail.readUInt32LE(p + 16),
      method: tail.readUInt16LE(p + 10),
      compressedSize: tail.readUInt32LE(p + 20),
      size: tail.readUInt32LE(p + 24),
      localOffset: tail.readUInt32LE(p + 42),
    };
    // Zip64 extended information: the 0xffffffff fields, in order size, compressed size, offset.
    let e = p + 46 + nameLen;
    const end = e + extraLen;
    while (e + 4 <= end) {
      const id = tail.readUInt16LE(e);
      const len = tail.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (entry.size === 0xffffffff) {
          entry.size = Number(tail.readBigUInt64LE(q));
          q += 8;
        }
        if (entry.compressedSize === 0xffffffff) {
          entry.compressedSize = Number(tail.readBigUInt64LE(q));
          q += 8;
        }
        if (entry.localOffset === 0xffffffff) entry.localOffset = Number(tail.readBigUInt64LE(q));
      }
      e += 4 + len;
    }
    entries.push(entry);
    p = end + commentLen;
  }
  return { total, firstCrc: crc >>> 0, entries, zip64 };
}
