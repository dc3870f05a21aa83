/**
 * `Content-Disposition` with an RFC 6266 / RFC 5987 filename: an ASCII fallback in `filename="…"`
 * and the exact UTF-8 name in `filename*=UTF-8''…`. Control characters, quotes and path separators never
 * reach the header.
 */
export function contentDisposition(type: 'inline' | 'attachment', filename: string): string {
  const clean =
    filename
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .replace(/[\\/]/g, '_')
      .trim() || 'download';
  const fallback =
    clean
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["%;\\]/g, '_')
      .trim() || 'download';
  const encoded = encodeURIComponent(clean).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
