// SSRF guard of storage endpoints (S3 configs and their test). Unlike URL uploads, a storage endpoint
// is set by the admin and is often on the local network (MinIO at 127.0.0.1:9000 or 192.168.x.y), so
// loopback and private addresses stay allowed. Cloud metadata and link-local addresses (169.254.0.0/16,
// fe80::/10, fd00:ec2::254, 100.100.100.200, and IPv6 forms embedding them) are refused:
// - when the endpoint is saved, if its host is such an address in any spelling (decimal, octal, short
//   forms are normalised by the URL parser first);
// - at every connection, by the `lookup` the S3 client's sockets resolve names with: a name resolving to
//   such an address (or re-resolving to one later: DNS rebinding) is refused before anything is sent.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { blockedReason } from './ssrfGuard.js';

/** Why a storage endpoint may not reach this address, or null (public, private and loopback are fine). */
export function storageAddressBlocked(address: string): string | null {
  const reason = blockedReason(address);
  return reason && /metadata|link-local/.test(reason) ? reason : null;
}

/** Why an endpoint URL is refused as saved (its host literal), or null. Names are checked at connect time. */
export function storageEndpointBlocked(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return null; // the schema reports a malformed URL
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!net.isIP(host)) return null;
  const reason = storageAddressBlocked(host);
  return reason ? `${url.hostname} is ${reason}` : null;
}

type Resolver = (
  hostname: string,
  options: { all: true; family?: number; hints?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** A socket `lookup` that resolves every address and refuses the connection if any is blocked. */
export function guardedStorageLookup(resolve: Resolver = dnsLookup as unknown as Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const opts = options as { all?: boolean; family?: number; hints?: number };
    resolve(hostname, { all: true, family: opts.family, hints: opts.hints }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const reason = storageAddressBlocked(address);
        if (reason) {
          const refused = Object.assign(
            new Error(`storage endpoint refused: ${hostname} resolves to ${reason} (${address})`),
            { code: 'EACCES' },
          );
          return callback(refused, '', 0);
        }
      }
      if (opts.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`cannot resolve ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}
