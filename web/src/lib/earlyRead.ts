/**
 * The first screen's data request, sent while the screen's code still downloads (main.tsx) and handed to that
 * screen's query when it asks: a cold load of a shared paste or file waits one round trip less (issue 21). Each
 * answer counts a view on the server, so a request is sent once and taken once, with the same options the screen
 * would send.
 */
import { api, type RequestOptions } from './api';

type Read = { path: string; options: Omit<RequestOptions, 'method' | 'body'> };

/** The request each shareable page sends first (features/pastes/api.ts fetchPaste, features/file-view/api.ts). */
const FIRST_READS: Record<string, (slug: string) => Read> = {
  paste: (slug) => ({ path: `/paste/${slug}`, options: {} }),
  file: (slug) => ({
    path: `/public/files/${slug}`,
    // With the session, as the screen sends it: an owner's look is not counted.
    options: { handleAuthErrors: false },
  }),
};

const sent = new Map<string, Promise<unknown>>();

/** The slug of the address, encoded as the screens encode it (`encodeURIComponent` of the decoded segment). */
function encodedSlug(segment: string): string | null {
  try {
    const slug = decodeURIComponent(segment);
    return slug ? encodeURIComponent(slug) : null;
  } catch {
    return null;
  }
}

/** Sends the first read of the page at `pathname`, if it has one. */
export function startEarlyRead(pathname: string): void {
  const [, screen = '', segment = '', ...rest] = pathname.split('/');
  const read = FIRST_READS[screen];
  const slug = encodedSlug(segment);
  if (!read || slug === null || rest.some(Boolean)) return;
  const { path, options } = read(slug);
  const request = api.get(path, options);
  // Whoever takes it handles its failure; one never taken must not be reported as unhandled.
  request.catch(() => undefined);
  sent.set(path, request);
}

/** The early request for `path`, if one was sent and not taken yet: from now on it is the caller's. */
export function takeEarlyRead<T>(path: string): Promise<T> | undefined {
  const request = sent.get(path);
  sent.delete(path);
  return request as Promise<T> | undefined;
}
