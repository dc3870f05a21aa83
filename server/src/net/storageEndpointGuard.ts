// SSRF guard of storage endpoints (S3 configs and their test). Unlike URL uploads, a storage endpoint
// is set by the admin and is often on the local network (MinIO at 127.0.0.1:9000 or 192.168.x.y), so
// loopback and private addresses stay allowed unless STORAGE_ENDPOINTS_ALLOW_PRIVATE=false. Cloud metadata
// and link-local addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200, and IPv6 forms
// embedding them) are always refused. One guard (one StorageEndpointGuard, built from the config) runs:
// - whenever a config enters: the API (create, update), a CloudPaste import and a backup restore (and its
//   preview) all refuse an endpoint whose host is such an address in any spelling (decimal, octal, short
//   forms are normalised by the URL parser first);
// - whenever a driver is built for a config (a row written before this rule, or by hand): a literal
//   address is refused there, since Node connects to a literal without calling `lookup`;
// - at every connection, by the `lookup` the S3 client's sockets resolve names with: a name resolving to
//   such an address (or re-resolving to one later: DNS rebinding) is refused before anything is sent.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { blockedReason } from './ssrfGuard.js';

type Resolver = (
  hostname: string,
  options: { all: true; family?: number; hints?: number },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export interface StorageEndpointRules {
  /** STORAGE_ENDPOINTS_ALLOW_PRIVATE (default true): loopback and private (LAN) endpoints are allowed. */
  allowPrivate?: boolean;
}

export class StorageEndpointGuard {
  private readonly allowPrivate: boolean;

  constructor(rules: StorageEndpointRules = {}) {
    this.allowPrivate = rules.allowPrivate ?? true;
  }

  /** Why a storage endpoint may not reach this address, or null. */
  addressBlocked(address: string): string | null {
    const reason = blockedReason(address);
    if (!reason) return null;
    if (/metadata|link-local/.test(reason)) return reason;
    return this.allowPrivate ? null : reason;
  }

  /**
   * Why an endpoint URL is refused (its host a refused literal address), or null. Names are checked at
   * connect time, by `lookup()`.
   */
  endpointBlocked(endpoint: string): string | null {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return null; // the schema reports a malformed URL
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!net.isIP(host)) return null;
    const reason = this.addressBlocked(host);
    return reason ? `${url.hostname} is ${reason}` : null;
  }

  /** A socket `lookup` that resolves every address and refuses the connection if any is blocked. */
  lookup(resolve: Resolver = dnsLookup as unknown as Resolver): LookupFunction {
    return (hostname, options, callback) => {
      const opts = options as { all?: boolean; family?: number; hints?: number };
      resolve(hostname, { all: true, family: opts.family, hints: opts.hints }, (error, addresses) => {
        if (error) return callback(error, '', 0);
        for (const { address } of addresses) {
          const reason = this.addressBlocked(address);
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
        if (!first) {
          return callback(Object.assign(new Error(`cannot resolve ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        }
        callback(null, first.address, first.family);
      });
    };
  }
}

const defaultGuard = new StorageEndpointGuard();

/** The default rules' addressBlocked (loopback and private allowed). */
export function storageAddressBlocked(address: string): string | null {
  return defaultGuard.addressBlocked(address);
}

/** The default rules' endpointBlocked. */
export function storageEndpointBlocked(endpoint: string): string | null {
  return defaultGuard.endpointBlocked(endpoint);
}

/** The default rules' lookup. */
export function guardedStorageLookup(resolve?: Resolver): LookupFunction {
  return defaultGuard.lookup(resolve);
}
