import { beforeAll, describe, expect, it } from 'vitest';
import i18n from '../i18n';
import { ApiError } from '../api';
import { createPresignedUploader } from './presignedUploader';
import { UploadError, type Uploader, type UploadProgress } from './types';
import { UploadNetworkError } from './xhrPut';

function fakePost(
  options: { uploadUrl?: string | null; commitFails?: boolean; presignFails?: boolean; presignError?: ApiError } = {},
) {
  const calls: { path: string; body: unknown }[] = [];
  const post = <T>(path: string, body: unknown): Promise<T> => {
    calls.push({ path, body });
    if (path === '/s3/presign') {
      if (options.presignError) return Promise.reject(options.presignError);
      if (options.presignFails) return Promise.reject(new ApiError('bucket unreachable', { status: 400 }));
      return Promise.resolve({
        upload_url: options.uploadUrl === undefined ? 'http://bucket/obj?sig=1' : options.uploadUrl,
        file_id: 'f9',
        contentType: 'text/plain',
      } as T);
    }
    if (path === '/s3/commit') {
      if (options.commitFails)
        return Promise.reject(new ApiError('the uploaded object was not found in the storage', { status: 400 }));
      return Promise.resolve({ slug: 'abc', filename: 'a.txt' } as T);
    }
    return Promise.resolve({} as T);
  };
  return { calls, post };
}

function makeTask() {
  const stages: UploadProgress[] = [];
  return {
    stages,
    task: {
      file: new File(['hello world'], 'a.txt', { type: 'text/plain' }),
      options: { password: 'pw' },
      signal: new AbortController().signal,
      onProgress: (p: UploadProgress) => stages.push(p),
    },
  };
}

const fallback = (calls: string[]): Uploader => ({
  kind: 'form',
  upload: () => {
    calls.push('form');
    return Promise.resolve({ slug: 'form' } as never);
  },
});

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

describe('presigned uploader', () => {
  it('presigns with the share fields, PUTs with the signed content type and commits size and ETag', async () => {
    const api = fakePost();
    const puts: { url: string; headers?: Record<string, string> }[] = [];
    const put = (url: string, _blob: Blob, o: { headers?: Record<string, string> }) => {
      puts.push({ url, headers: o.headers });
      return Promise.resolve({ status: 200, etag: '"e1"', body: undefined });
    };
    const { task, stages } = makeTask();
    const view = await createPresignedUploader({ post: api.post, put }).upload(task);
    expect(view.slug).toBe('abc');
    expect(api.calls[0]).toMatchObject({ path: '/s3/presign', body: { filename: 'a.txt', size: 11, password: 'pw' } });
    expect(puts).toEqual([{ url: 'http://bucket/obj?sig=1', headers: { 'Content-Type': 'text/plain' } }]);
    expect(api.calls[1]).toEqual({ path: '/s3/commit', body: { file_id: 'f9', size: 11, etag: '"e1"' } });
    expect(stages.map((s) => s.stage)).toEqual(
      expect.arrayContaining(['starting', 'initializing', 'uploading', 'completing', 'completed']),
    );
  });

  it('drops the file when the commit fails', async () => {
    const api = fakePost({ commitFails: true });
    const put = () => Promise.resolve({ status: 200, etag: '"e1"', body: undefined });
    const { task } = makeTask();
    await expect(createPresignedUploader({ post: api.post, put }).upload(task)).rejects.toThrow(/not found/);
    expect(api.calls.map((c) => c.path)).toEqual(['/s3/presign', '/s3/commit', '/s3/cancel']);
    expect(api.calls[2]!.body).toEqual({ file_id: 'f9' });
  });

  it('drops the file and reports the status when the bucket refuses the PUT', async () => {
    const api = fakePost();
    const put = () => Promise.reject(new UploadError('Upload failed: 403', { status: 403 }));
    const { task } = makeTask();
    await expect(createPresignedUploader({ post: api.post, put }).upload(task)).rejects.toThrow('Upload failed: 403');
    expect(api.calls.map((c) => c.path)).toEqual(['/s3/presign', '/s3/cancel']);
  });

  it('falls back to the form upload when the browser cannot reach the bucket (CORS)', async () => {
    const api = fakePost();
    const used: string[] = [];
    const put = () => Promise.reject(new UploadNetworkError('Network error during upload'));
    const { task } = makeTask();
    const view = await createPresignedUploader({ post: api.post, put, fallback: fallback(used) }).upload(task);
    expect(view.slug).toBe('form');
    expect(used).toEqual(['form']);
    expect(api.calls.map((c) => c.path)).toEqual(['/s3/presign', '/s3/cancel']);
  });

  it('uses the form upload when the storage gives no presigned URL', async () => {
    const api = fakePost({ uploadUrl: null });
    const used: string[] = [];
    const { task } = makeTask();
    await createPresignedUploader({ post: api.post, fallback: fallback(used) }).upload(task);
    expect(used).toEqual(['form']);
  });

  it('says "Failed to get presigned URL" when presign fails', async () => {
    const api = fakePost({ presignFails: true });
    const { task } = makeTask();
    await expect(createPresignedUploader({ post: api.post }).upload(task)).rejects.toThrow(
      'Failed to get presigned URL: bucket unreachable',
    );
  });

  it('shows an insufficient-storage or too-large answer as it is, decided on the kind', async () => {
    const quota = 'insufficient storage: file size 5 B, remaining space 1 B, total capacity 10 B';
    for (const [kind, message] of [
      ['quota_exceeded', quota],
      ['payload_too_large', 'file exceeds the maximum upload size of 1 B'],
    ] as const) {
      const api = fakePost({ presignError: new ApiError(message, { status: 413, kind }) });
      await expect(createPresignedUploader({ post: api.post }).upload(makeTask().task)).rejects.toThrow(
        new RegExp(`^${message}$`),
      );
    }
    // The same words under another kind are not trusted: the step's prefix is added.
    const api = fakePost({ presignError: new ApiError(quota, { status: 503, kind: 'unavailable' }) });
    await expect(createPresignedUploader({ post: api.post }).upload(makeTask().task)).rejects.toThrow(
      `Failed to get presigned URL: ${quota}`,
    );
  });
});
