/**
 * WebDAV clients known to follow a GET's redirect to another host (the presigned URL of a `302_redirect`
 * mount). Every other client gets the bytes from the server: litmus, cadaver and davfs2 (neon), Windows'
 * mini-redirector, macOS Finder and Office fail on a 302 to another host or save the empty redirect body.
 * Browsers follow redirects but are not WebDAV clients (they read files through the web app).
 *
 * - rclone (`rclone/v1.x`): Go's HTTP client follows the redirect and drops the Authorization header for
 *   the other host (tested: server/test/webdav.rclone.int.test.ts).
 */
const FOLLOWS_REDIRECTS: readonly RegExp[] = [/^rclone\//i];

/** Whether a GET from this User-Agent may be answered with a redirect to another host. */
export function followsCrossHostRedirects(userAgent: string | undefined): boolean {
  return userAgent !== undefined && FOLLOWS_REDIRECTS.some((pattern) => pattern.test(userAgent.trim()));
}
