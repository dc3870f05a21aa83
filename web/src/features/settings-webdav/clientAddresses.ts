/** The address each WebDAV client wants: same server, different spellings. */
export interface ClientAddress {
  client: 'windows' | 'macos' | 'ios' | 'rclone' | 'davfs2' | 'linuxFiles' | 'cyberduck' | 'android';
  address: string;
  /** Whether the trailing slash matters for this client, and which way. */
  slash?: 'with' | 'without';
}

export function clientAddresses(origin: URL): ClientAddress[] {
  const secure = origin.protocol === 'https:';
  const base = `${origin.protocol}//${origin.host}${origin.pathname.replace(/\/+$/, '')}`;
  const dav = `${base}/dav/`;
  const path = `${origin.pathname.replace(/\/+$/, '')}/dav/`;
  return [
    { client: 'windows', address: dav, slash: 'with' },
    { client: 'macos', address: dav },
    { client: 'ios', address: dav },
    { client: 'rclone', address: `${base}/dav`, slash: 'without' },
    { client: 'davfs2', address: dav, slash: 'with' },
    { client: 'linuxFiles', address: `${secure ? 'davs' : 'dav'}://${origin.host}${path}`, slash: 'with' },
    { client: 'cyberduck', address: dav },
    { client: 'android', address: dav },
  ];
}
