/** Content codings the server sends, best first. */
export type ContentCoding = 'br' | 'gzip';

/**
 * The best of `available` the client accepts (RFC 9110 §12.5.3): an explicit `q=0` refuses a
 * coding, `*` stands for the ones not named; ties go to the order of `available` (brotli first).
 */
export function pickEncoding(
  acceptEncoding: string | undefined,
  available: readonly ContentCoding[],
): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  let best: ContentCoding | null = null;
  let bestWeight = 0;
  for (const coding of available) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}
