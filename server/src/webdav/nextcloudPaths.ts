/** `/remote.php/webdav` or `/remote.php/dav/files/<user>` (as the client spelled it), else undefined. */
export function nextcloudBaseOf(rawPath: string): string | undefined {
  if (rawPath === '/remote.php/webdav' || rawPath.startsWith('/remote.php/webdav/')) return '/remote.php/webdav';
  return /^\/remote\.php\/dav\/files\/[^/]+/.exec(rawPath)?.[0];
}
