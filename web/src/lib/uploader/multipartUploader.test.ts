import type { MultipartStatus } from '@clipnest/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import i18n from '../i18n';
import { createMultipartUploader, type MultipartApi } from './multipartUploader';
import { createMemoryResumeStore, resumeKey, type ResumeRecord } from './resumeStore';
import { UploadError, type UploadProgress } from './types';
import type { PutOptions } from './xhrPut';

const PART = 10;

/** A server double that keeps the multipart session the way the real one does. */
function fakeServer(options: { partCount: number; size: number; presigned?: boolean }) {
  const calls: { path: string; body?: unknown }[] = [];
  const recorded = new Map<number, string>();
  const signed: number[] = [];
  let aborted = false;
  let completed: unknown;
  let recordedAtComplete = -1;
  const api: MultipartApi = {
    post: <T>(path: string, body: unknown) => {
      calls.push({ path, body });
      const b = body as Record<string, unknown>;
      if (path.endsWith('/init'))
        return Promise.resolve({
          file_id: 'f1',
          upload_id: 'u1',
          uploadId: 'u1',
          part_size: PART,
          part_count: options.partCount,
          presigned_parts: options.presigned ?? true,
        } as T);
      if (path.endsWith('/sign-parts')) {
        const completedParts = (b.completed ?? []) as { PartNumber: number; ETag: string }[];
        for (const p of completedParts) recorded.set(p.PartNumber, p.ETag);
        const urls = (b.part_numbers as number[]).map((n) => {
          signed.push(n);
          return {
            partNumber: n,
            url: `http://bucket/p${n}?sig=${signed.length}`,
            proxied: options.presigned === false,
          };
        });
        return Promise.resolve({ urls } as T);
      }
      if (path.endsWith('/parts')) {
        recorded.set(b.part_number as number, b.etag as string);
        return Promise.resolve({} as T);
      }
      if (path.endsWith('/complete')) {
        completed = body;
        recordedAtComplete = recorded.size;
        return Promise.resolve({ slug: 'done', filename: 'big.bin' } as T);
      }
      if (path.endsWith('/abort')) {
        aborted = true;
        return Promise.resolve({} as T);
      }
      return Promise.reject(new Error(`unexpected ${path}`));
    },
    get: <T>(path: string, query: Record<string, string>) => {
      calls.push({ path, body: query });
      const parts = [...recorded.entries()].map(([PartNumber, ETag]) => ({ PartNumber, ETag, size: PART }));
      const missing: number[] = [];
      for (let n = 1; n <= options.partCount; n++) if (!recorded.has(n)) missing.push(n);
      const status: Partial<MultipartStatus> = {
        file_id: 'f1',
        upload_id: 'u1',
        size: options.size,
        part_size: PART,
        part_count: options.partCount,
        presigned_parts: options.presigned ?? true,
        parts,
        missing,
      };
      return Promise.resolve(status as T);
    },
  };
  return {
    api,
    calls,
    recorded,
    signed,
    get aborted() {
      return aborted;
    },
    get completed() {
      return completed;
    },
    /** Parts the server had recorded when complete was called. */
    get recordedAtComplete() {
      return recordedAtComplete;
    },
  };
}

function makeTask(size: number, signal = new AbortController().signal) {
  const stages: UploadProgress[] = [];
  const file = new File([new Uint8Array(size)], 'big.bin', { lastModified: 1000 });
  return { stages, task: { file, options: {}, signal, onProgress: (p: UploadProgress) => stages.push(p) } };
}

/** A session of 4 parts (35 bytes) with parts 1 and 3 uploaded, as a reload finds it. */
function savedSession(file: File, kind?: string): ResumeRecord {
  return {
    key: resumeKey(file, '', kind),
    name: 'big.bin',
    filename: 'big.bin',
    size: 35,
    lastModified: 1000,
    s3_config_id: '',
    file_id: 'f1',
    upload_id: 'u1',
    part_size: PART,
    part_count: 4,
    parts_done: [1, 3],
    created_at: Date.now(),
    updated_at: Date.now(),
  };
}

const noSleep = (delays: number[]) => (ms: number) => {
  delays.push(ms);
  return Promise.resolve();
};

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

describe('multipart uploader', () => {
  it('prefixes a failed init, except an answer that stands alone by its kind (insufficient storage)', async () => {
    const failing = (error: ApiError): MultipartApi => {
      const server = fakeServer({ partCount: 1, size: 5 });
      return {
        ...server.api,
        post: (path, body) => (path.endsWith('/init') ? Promise.reject(error) : server.api.post(path, body)),
      };
    };
    const quota = 'insufficient storage: file size 5 B, remaining space 1 B, total capacity 10 B';
    const upload = (error: ApiError) =>
      createMultipartUploader({ api: failing(error), store: createMemoryResumeStore() }).upload(makeTask(5).task);
    await expect(upload(new ApiError(quota, { status: 413, kind: 'quota_exceeded' }))).rejects.toThrow(
      new RegExp(`^${quota}$`),
    );
    await expect(
      upload(new ApiError('the storage is unavailable', { status: 503, kind: 'unavailable' })),
    ).rejects.toThrow('Failed to start the multipart upload: the storage is unavailable');
  });

  it('uploads every part with at most 3 in flight, records ETags and completes', async () => {
    const server = fakeServer({ partCount: 7, size: 65 });
    const store = createMemoryResumeStore();
    let inFlight = 0;
    let peak = 0;
    const put = async (url: string, blob: Blob, o: PutOptions) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      o.onProgress?.(blob.size);
      inFlight -= 1;
      return { status: 200, etag: `"e-${url.split('?')[0]}"`, body: undefined };
    };
    const { task, stages } = makeTask(65);
    const view = await createMultipartUploader({ api: server.api, put, store }).upload(task);
    expect(view.slug).toBe('done');
    expect(peak).toBe(3);
    expect([...server.recorded.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(stages.map((s) => s.stage)).toContain('initializing');
    expect(stages.at(-1)).toMatchObject({ stage: 'completed', loaded: 65 });
    expect(await store.list()).toEqual([]);
    const parts = (server.completed as { parts: { PartNumber: number }[] }).parts;
    expect(parts.map((p) => p.PartNumber)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('needs about one API call per part: ETags ride on the next sign-parts call, the last ones on their own', async () => {
    const server = fakeServer({ partCount: 7, size: 65 });
    const put = async (url: string) => {
      await new Promise((r) => setTimeout(r, 5));
      return { status: 200, etag: `"e-${url.split('?')[0]}"`, body: undefined };
    };
    await createMultipartUploader({ api: server.api, put, store: createMemoryResumeStore() }).upload(makeTask(65).task);
    const signCalls = server.calls.filter((c) => c.path.endsWith('/sign-parts'));
    const bodies = signCalls.map((c) => c.body as { part_numbers: number[]; completed?: { PartNumber: number }[] });
    // The first call signs the first part of each of the 3 workers; later calls sign one part each.
    expect(bodies[0]!.part_numbers).toEqual([1, 2, 3]);
    expect(bodies.slice(1).every((b) => b.part_numbers.length <= 1)).toBe(true);
    expect(signCalls.length).toBeGreaterThanOrEqual(5);
    expect(signCalls.length).toBeLessThanOrEqual(8);
    expect(server.calls.some((c) => c.path.endsWith('/multipart/parts'))).toBe(false);
    // Every part was reported before complete (a reload before it would still find them).
    expect(bodies.flatMap((b) => (b.completed ?? []).map((p) => p.PartNumber)).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(server.recordedAtComplete).toBe(7);
  });

  it('re-signs the URL on each retry and waits 1000 ms × attempt', async () => {
    const server = fakeServer({ partCount: 2, size: 20 });
    const delays: number[] = [];
    let failures = 0;
    const put = (url: string) => {
      if (url.includes('/p2') && failures < 2) {
        failures += 1;
        return Promise.reject(new UploadError('Network error during upload'));
      }
      return Promise.resolve({ status: 200, etag: '"x"', body: undefined });
    };
    const { task } = makeTask(20);
    await createMultipartUploader({
      api: server.api,
      put,
      store: createMemoryResumeStore(),
      sleep: noSleep(delays),
    }).upload(task);
    expect(server.signed.filter((n) => n === 2)).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
  });

  it('gives up after 3 attempts with "some parts failed to upload" and keeps the session for resume', async () => {
    const server = fakeServer({ partCount: 2, size: 20 });
    const store = createMemoryResumeStore();
    const put = (url: string) =>
      url.includes('/p2')
        ? Promise.reject(new UploadError('Upload failed: 500', { status: 500 }))
        : Promise.resolve({ status: 200, etag: '"x"', body: undefined });
    const { task } = makeTask(20);
    const upload = createMultipartUploader({ api: server.api, put, store, sleep: noSleep([]) }).upload(task);
    await expect(upload).rejects.toThrow(/^Some parts failed to upload: Upload failed: 500/);
    expect(server.signed.filter((n) => n === 2)).toHaveLength(3);
    const [saved] = await store.list();
    expect(saved?.file_id).toBe('f1');
    expect(server.aborted).toBe(false);
    // The part that did arrive is on the server's record for the resume.
    expect([...server.recorded.keys()]).toEqual([1]);
  });

  it('rejects a presigned part without an ETag (no ETag obtained)', async () => {
    const server = fakeServer({ partCount: 1, size: 5 });
    const put = () => Promise.resolve({ status: 200, etag: null, body: undefined });
    const { task } = makeTask(5);
    const upload = createMultipartUploader({
      api: server.api,
      put,
      store: createMemoryResumeStore(),
      sleep: noSleep([]),
    }).upload(task);
    await expect(upload).rejects.toThrow(/No ETag obtained/);
  });

  it('resumes: lists the parts on the server and sends only the missing ones', async () => {
    const server = fakeServer({ partCount: 4, size: 35 });
    server.recorded.set(1, '"a"');
    server.recorded.set(3, '"c"');
    const store = createMemoryResumeStore();
    const { task } = makeTask(35);
    await store.put(savedSession(task.file));
    const sent: string[] = [];
    const put = (url: string) => {
      sent.push(url.split('?')[0]!);
      return Promise.resolve({ status: 200, etag: '"n"', body: undefined });
    };
    await createMultipartUploader({ api: server.api, put, store }).upload(task);
    expect(sent.sort()).toEqual(['http://bucket/p2', 'http://bucket/p4']);
    expect(server.calls.some((c) => c.path.endsWith('/init'))).toBe(false);
  });

  it('sends a source in place of the file, made parts ahead, and resumes it only with the same id', async () => {
    // A 25-byte file whose "encrypted" bytes are 35: each byte + 1, plus 10 bytes of head.
    const bytes = Uint8Array.from({ length: 35 }, (_, i) => i + 1);
    const reads: number[] = [];
    const released: string[] = [];
    let held = 0;
    let peakHeld = 0;
    const source = (id: string) => ({
      kind: 'test',
      id,
      size: 35,
      type: 'application/octet-stream',
      state: { id },
      read: async (start: number, end: number) => {
        reads.push(start / PART + 1);
        held += 1;
        peakHeld = Math.max(peakHeld, held);
        await new Promise((r) => setTimeout(r, 1));
        return new Blob([bytes.slice(start, end)]);
      },
      release: (blob: Blob) => void blob.text().then((text) => released.push(text)),
    });
    const received = new Map<number, string>();
    const put = async (url: string, blob: Blob) => {
      held -= 1;
      received.set(Number(/p(\d+)/.exec(url)![1]), Buffer.from(await blob.arrayBuffer()).toString('hex'));
      await new Promise((r) => setTimeout(r, 3));
      return { status: 200, etag: '"n"', body: undefined };
    };

    // First run: the init names the source's size and type, never the file's.
    const server = fakeServer({ partCount: 4, size: 35 });
    const store = createMemoryResumeStore();
    const { task } = makeTask(25);
    await createMultipartUploader({ api: server.api, put, store }).upload({ ...task, source: source('A') });
    const init = server.calls.find((c) => c.path.endsWith('/init'))!.body as Record<string, unknown>;
    expect(init).toMatchObject({ size: 35, mimetype: 'application/octet-stream' });
    expect([...reads].sort()).toEqual([1, 2, 3, 4]);
    expect(peakHeld).toBeLessThanOrEqual(6); // 3 workers + 3 ahead (here all 4 parts)
    await new Promise((r) => setTimeout(r, 5));
    expect(released).toHaveLength(4); // each part, once sent
    expect(Buffer.concat([1, 2, 3, 4].map((n) => Buffer.from(received.get(n)!, 'hex')))).toEqual(Buffer.from(bytes));

    // A saved session of the source: resumed with the same id (only missing parts read and sent) ...
    const saved = (id: string): ResumeRecord => ({
      ...savedSession(task.file, 'test'),
      filename: 'encrypted.bin',
      source: { kind: 'test', id, state: { id }, file_size: 25 },
    });
    const resumed = fakeServer({ partCount: 4, size: 35 });
    resumed.recorded.set(1, '"a"');
    resumed.recorded.set(3, '"c"');
    await store.put(saved('A'));
    reads.length = 0;
    await createMultipartUploader({ api: resumed.api, put, store }).upload({ ...task, source: source('A') });
    expect([...reads].sort()).toEqual([2, 4]);
    expect(resumed.calls.some((c) => c.path.endsWith('/init'))).toBe(false);

    // ... and started over with another id (other bytes must never join parts already uploaded).
    const other = fakeServer({ partCount: 4, size: 35 });
    other.recorded.set(1, '"a"');
    await store.put(saved('A'));
    reads.length = 0;
    await createMultipartUploader({ api: other.api, put, store }).upload({ ...task, source: source('B') });
    expect(other.calls.some((c) => c.path.endsWith('/init'))).toBe(true);
    expect(await store.list()).toEqual([]);
  });

  it('completes at once when every part is already on the server', async () => {
    const server = fakeServer({ partCount: 2, size: 20 });
    server.recorded.set(1, '"a"');
    server.recorded.set(2, '"b"');
    const store = createMemoryResumeStore();
    const { task } = makeTask(20);
    await store.put({
      key: resumeKey(task.file, ''),
      name: 'big.bin',
      filename: 'big.bin',
      size: 20,
      lastModified: 1000,
      s3_config_id: '',
      file_id: 'f1',
      upload_id: 'u1',
      part_size: PART,
      part_count: 2,
      parts_done: [1, 2],
      created_at: Date.now(),
      updated_at: Date.now(),
    });
    const put = () => Promise.reject(new Error('no part should be sent'));
    await createMultipartUploader({ api: server.api, put, store }).upload(task);
    expect(server.signed).toEqual([]);
    expect(server.completed).toBeTruthy();
  });

  it('cancel aborts in-flight PUTs, aborts the upload on the server and forgets it', async () => {
    const server = fakeServer({ partCount: 3, size: 30 });
    const store = createMemoryResumeStore();
    const controller = new AbortController();
    let started = 0;
    const put = (_url: string, _blob: Blob, o: PutOptions) =>
      new Promise<never>((_resolve, reject) => {
        started += 1;
        if (started === 3) setTimeout(() => controller.abort(), 1);
        o.signal.addEventListener('abort', () => reject(new UploadError('Upload cancelled', { cancelled: true })));
      });
    const { task, stages } = makeTask(30, controller.signal);
    const upload = createMultipartUploader({ api: server.api, put, store }).upload(task);
    await expect(upload).rejects.toMatchObject({ cancelled: true });
    expect(server.aborted).toBe(true);
    expect(await store.list()).toEqual([]);
    expect(stages.at(-1)?.stage).toBe('cancelled');
  });
});
