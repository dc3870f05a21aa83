import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../i18n';
import { createFormUploader } from './formUploader';
import { UploadError, type UploadProgress } from './types';

/** Just enough XMLHttpRequest for the uploader: the test drives its events. */
class FakeXhr {
  static last: FakeXhr;
  upload: Record<string, ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null> = {
    onloadstart: null,
    onprogress: null,
    onload: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  responseType = '';
  headers: Record<string, string> = {};
  url = '';
  body: unknown;
  aborted = false;
  constructor() {
    FakeXhr.last = this;
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true });
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

function task(signal = new AbortController().signal) {
  const stages: UploadProgress[] = [];
  return {
    stages,
    task: {
      file: new File(['x'.repeat(1000)], 'notes.md'),
      options: { slug: 'abc' },
      signal,
      onProgress: (p: UploadProgress) => stages.push(p),
    },
  };
}

describe('form uploader', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  beforeEach(() => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('reports starting → uploading → processing → completed and resolves the share', async () => {
    const { stages, task: t } = task();
    const done = createFormUploader().upload(t);
    const xhr = FakeXhr.last;
    expect(xhr.url).toMatch(/\/api\/upload$/);
    const form = xhr.body as FormData;
    expect(form.get('mimetype')).toBe('text/markdown');
    expect(form.get('slug')).toBe('abc');
    xhr.upload.onloadstart?.({ loaded: 0, total: 1200, lengthComputable: true });
    xhr.progress(600, 1200);
    xhr.upload.onload?.({ loaded: 1200, total: 1200, lengthComputable: true });
    xhr.respond(201, {
      code: 201,
      message: 'ok',
      success: true,
      data: { id: 'f1', slug: 'abc', filename: 'notes.md' },
    });
    await expect(done).resolves.toMatchObject({ slug: 'abc' });
    expect(stages.map((s) => s.stage)).toEqual(['starting', 'uploading', 'uploading', 'processing', 'completed']);
    // Progress is scaled from the multipart body to the file's own size.
    expect(stages[2]!.loaded).toBe(500);
  });

  it('rejects with the text of the kind (the server sentence as a detail) and the status', async () => {
    const { task: t } = task();
    const done = createFormUploader().upload(t);
    FakeXhr.last.respond(413, {
      code: 413,
      kind: 'payload_too_large',
      message: 'the file is larger than 100 MB',
      success: false,
    });
    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({
      status: 413,
      message: 'This is too large',
      serverMessage: 'the file is larger than 100 MB',
      cancelled: false,
    });
  });

  it('says "upload failed: {status}" when the server gives no message', async () => {
    const { task: t } = task();
    const done = createFormUploader().upload(t);
    FakeXhr.last.status = 502;
    FakeXhr.last.responseText = '<html>bad gateway</html>';
    FakeXhr.last.onload?.();
    await expect(done).rejects.toMatchObject({ status: 502, message: 'Upload failed: 502' });
  });

  it('cancels through the abort signal', async () => {
    const controller = new AbortController();
    const { stages, task: t } = task(controller.signal);
    const done = createFormUploader().upload(t);
    controller.abort();
    await expect(done).rejects.toMatchObject({ cancelled: true, message: 'Upload cancelled' });
    expect(FakeXhr.last.aborted).toBe(true);
    expect(stages.at(-1)!.stage).toBe('cancelled');
  });

  it('gives up after a stall without progress ("upload timed out")', async () => {
    vi.useFakeTimers();
    const { task: t } = task();
    const done = createFormUploader({ stallTimeoutMs: 1000 }).upload(t);
    const caught = done.catch((e: unknown) => e);
    vi.advanceTimersByTime(1001);
    expect(await caught).toMatchObject({ cancelled: false, message: 'Upload timed out' });
  });

  it('reports a network failure', async () => {
    const { task: t } = task();
    const done = createFormUploader().upload(t);
    FakeXhr.last.onerror?.();
    await expect(done).rejects.toMatchObject({ message: 'Network error during upload' });
  });
});
