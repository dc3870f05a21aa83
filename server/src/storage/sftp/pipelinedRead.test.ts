import { buffer } from 'node:stream/consumers';
import type { SFTPWrapper } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { PipelinedSftpRead } from './pipelinedRead.js';

/** An SFTP session over a buffer whose answers come back out of order, and short when `shortBy` says so. */
function fakeSftp(file: Buffer, shortBy = 0, holdFirst = false) {
  let calls = 0;
  let held: (() => void) | undefined;
  let maxInFlight = 0;
  let inFlight = 0;
  let closed = 0;
  const sftp = {
    open: (_path: string, _flags: string, cb: (err: Error | undefined, handle: Buffer) => void) =>
      setImmediate(() => cb(undefined, Buffer.from('h'))),
    close: (_handle: Buffer, cb: () => void) => {
      closed++;
      setImmediate(cb);
    },
    read: (
      _handle: Buffer,
      buf: Buffer,
      off: number,
      len: number,
      position: number,
      cb: (err: Error | undefined, bytes: number, data: Buffer) => void,
    ) => {
      calls++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const give = Math.max(0, Math.min(len - (len > shortBy ? shortBy : 0), file.length - position));
      if (give > 0) file.copy(buf, off, position, position + give);
      const answer = () => {
        inFlight--;
        cb(undefined, give, buf);
      };
      if (holdFirst && calls === 1) held = answer;
      // Later requests answer sooner, so ordering is the reader's job.
      else setTimeout(answer, Math.random() * 3);
    },
  };
  return {
    sftp: sftp as unknown as SFTPWrapper,
    stats: () => ({ maxInFlight, closed, calls }),
    release: () => held?.(),
  };
}

const file = Buffer.from(Array.from({ length: 700_000 }, (_, i) => (i * 7 + (i >> 9)) & 255));

describe('PipelinedSftpRead', () => {
  it('hands on the whole file in order with many requests in flight, and closes the handle', async () => {
    const fake = fakeSftp(file);
    const got = await buffer(new PipelinedSftpRead(fake.sftp, '/f', 0, file.length));
    expect(got.equals(file)).toBe(true);
    expect(fake.stats().maxInFlight).toBeGreaterThan(4);
    expect(fake.stats().closed).toBe(1);
  });

  it('reads a range', async () => {
    const fake = fakeSftp(file);
    const got = await buffer(new PipelinedSftpRead(fake.sftp, '/f', 1000, 300_001));
    expect(got.equals(file.subarray(1000, 300_001))).toBe(true);
  });

  it('asks again for what a short answer left out', async () => {
    const fake = fakeSftp(file, 1000);
    const got = await buffer(new PipelinedSftpRead(fake.sftp, '/f', 0, file.length));
    expect(got.equals(file)).toBe(true);
  });

  it('stops where the file ends when it is shorter than the size given', async () => {
    const fake = fakeSftp(file);
    const got = await buffer(new PipelinedSftpRead(fake.sftp, '/f', 0, file.length + 200_000));
    expect(got.equals(file)).toBe(true);
  });

  it('ends at once for an empty range', async () => {
    const fake = fakeSftp(file);
    const got = await buffer(new PipelinedSftpRead(fake.sftp, '/f', 0, 0));
    expect(got.length).toBe(0);
  });

  it('asks for no more than its window while the first answer is late, however fast the others come', async () => {
    const big = Buffer.concat([file, file, file, file]);
    const fake = fakeSftp(big, 0, true);
    const reader = new PipelinedSftpRead(fake.sftp, '/f', 0, big.length);
    const got = buffer(reader);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // 2 MiB of 64 KiB requests: the answered ones wait behind the first and still count.
    expect(fake.stats().calls).toBeLessThanOrEqual(32);
    fake.release();
    expect((await got).equals(big)).toBe(true);
  });
});
