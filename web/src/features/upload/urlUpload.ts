import type { UrlFetchJob, UrlInfo } from '@clipnest/contract';
import { api } from '../../lib/api';
import { shareOptionEntries } from '../../lib/uploader/fields';
import type { ShareOptions } from '../../lib/uploader/types';

/** Upload from a URL (spec §4 "URL upload"): the server fetches the file into storage as a job. */
export const URL_POLL_MS = 500;

/** Light client check before asking the server (which has the real SSRF guard). */
export function checkUrl(value: string): 'empty' | 'invalid' | 'scheme' | null {
  const text = value.trim();
  if (!text) return 'empty';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme';
  return null;
}

export function urlInfo(url: string, signal?: AbortSignal): Promise<UrlInfo> {
  return api.post<UrlInfo>('/url/info', { url: url.trim() }, { signal });
}

export function startUrlFetch(
  url: string,
  filename: string | undefined,
  options: ShareOptions,
  signal?: AbortSignal,
): Promise<UrlFetchJob> {
  const body: Record<string, string> = { url: url.trim() };
  const name = filename?.trim();
  if (name) body.filename = name;
  for (const [key, value] of shareOptionEntries(options)) body[key] = value;
  return api.post<UrlFetchJob>('/url/fetch', body, { signal });
}

export function urlJob(id: string, signal?: AbortSignal): Promise<UrlFetchJob> {
  return api.get<UrlFetchJob>(`/url/jobs/${encodeURIComponent(id)}`, { signal });
}

export function cancelUrlJob(id: string): Promise<unknown> {
  return api.post('/url/cancel', { file_id: id });
}

/** Waits for a job to end, reporting each poll; resolves with the final job. */
export async function followUrlJob(
  job: UrlFetchJob,
  onUpdate: (job: UrlFetchJob) => void,
  signal: AbortSignal,
  pollMs = URL_POLL_MS,
): Promise<UrlFetchJob> {
  let current = job;
  onUpdate(current);
  while (current.status === 'downloading') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done);
    });
    if (signal.aborted) return current;
    current = await urlJob(current.job_id, signal);
    onUpdate(current);
  }
  return current;
}
