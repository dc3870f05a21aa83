// Small helpers and limits the S3 driver's files share.

export const MiB = 1024 * 1024;
export const MAX_LIST = 1000;
export const MAX_PRESIGN_TTL = 7 * 24 * 3600;

export function quoteEtag(etag: string | undefined): string | undefined {
  if (!etag) return undefined;
  return etag.startsWith('"') || etag.startsWith('W/') ? etag : `"${etag}"`;
}

export function unquote(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"|"$/g, '');
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function eachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  });
  await Promise.all(workers);
}
