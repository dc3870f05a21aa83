// SSRF guard for URL uploads: only http(s); every address a host resolves to, at every redirect hop
// (followed manually, at most 5), must be public unicast — not loopback, private, link-local, CGNAT,
// multicast, unspecified, reserved, a cloud metadata address or an IPv6 form embedding one of those
// (IPv4-compatible, -mapped, -translated, NAT64, 6to4, Teredo: see embeddedIpv4.ts).
// The connection is pinned to the address that was checked (custom `lookup`), so a DNS answer that
// changes between check and connect (rebinding) cannot slip through. ALLOW_PRIVATE_URLS=true turns
// the address checks off (the scheme and redirect limits stay).
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors.js';
import { embeddedIpv4 } from './embeddedIpv4.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface SsrfGuardOptions {
  /** ALLOW_PRIVATE_URLS: skip the address checks. */
  allowPrivate: boolean;
  /** DNS resolution (default: the system resolver, every address). Tests stub it. */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
  /** Test hook: an address for which this answers true passes even when private. */
  allow?: (host: string, address: string) => boolean;
  /** Connect + response headers, and idle time between body chunks (default 30 s). */
  timeoutMs?: number;
  maxRedirects?: number;
}

export interface GuardedRequestOptions {
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface GuardedResponse {
  response: http.IncomingMessage;
  /** The URL that answered (after redirects). */
  url: URL;
}

/** Cloud metadata endpoints, refused even if some range check let them through. */
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '169.254.170.2']);

/** Why an address is refused, or null when it is public unicast. */
export function blockedReason(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  if (ip.kind() === 'ipv6') {
    // IPv6 forms that carry an IPv4 address are judged by that address (every candidate of it).
    const embedded = embeddedIpv4(ip as ipaddr.IPv6);
    if (embedded) {
      for (const inner of embedded.addresses) {
        const reason = blockedReason(inner.toString());
        if (reason) return `${embedded.form} ${reason} (${inner.toString()})`;
      }
      return null;
    }
  }
  const normalized = ip.toNormalizedString();
  if (METADATA.has(ip.toString()) || METADATA.has(normalized)) return 'a cloud metadata address';
  const range = ip.range();
  if (range === 'unicast') return null;
  const names: Record<string, string> = {
    loopback: 'a loopback address',
    private: 'a private address',
    uniqueLocal: 'a private (unique local) address',
    linkLocal: 'a link-local address',
    carrierGradeNat: 'a carrier-grade NAT address',
    multicast: 'a multicast address',
    broadcast: 'a broadcast address',
    unspecified: 'an unspecified address',
    reserved: 'a reserved address',
  };
  return names[range] ?? `a special-purpose address (${range})`;
}

function refused(message: string): AppError {
  // `reason` lets clients word the refusal in their own language (the message is English, for scripts and logs).
  return new AppError('VALIDATION', `URL refused: ${message}`, {
    data: { fields: [{ path: 'url', message }], reason: 'url_refused' },
  });
}

function unreachable(message: string): AppError {
  return new AppError('VALIDATION', `could not fetch the URL: ${message}`, {
    data: { fields: [{ path: 'url', message }], reason: 'url_unreachable' },
  });
}

/** Parses and checks the scheme: only http and https. */
export function parseRemoteUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refused('not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refused(`only http and https URLs are allowed, not ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.username || url.password) throw refused('URLs with credentials are not allowed');
  if (!url.hostname) throw refused('the URL has no host');
  return url;
}

const systemResolve = async (host: string): Promise<ResolvedAddress[]> => {
  const all = await dnsLookup(host, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export class SsrfGuard {
  private readonly resolveHost: (host: string) => Promise<ResolvedAddress[]>;
  readonly timeoutMs: number;
  readonly maxRedirects: number;

  constructor(private readonly options: SsrfGuardOptions) {
    this.resolveHost = options.resolve ?? systemResolve;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRedirects = options.maxRedirects ?? 5;
  }

  /** Resolves the URL's host and checks every address; answers the one to connect to. */
  async check(url: URL): Promise<ResolvedAddress> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: ResolvedAddress[];
    if (net.isIP(host)) {
      addresses = [{ address: host, family: net.isIP(host) === 6 ? 6 : 4 }];
    } else {
      try {
        addresses = await this.resolveHost(host);
      } catch (error) {
        throw unreachable(`cannot resolve ${host} (${(error as NodeJS.ErrnoException).code ?? 'DNS error'})`);
      }
      if (addresses.length === 0) throw unreachable(`cannot resolve ${host}`);
    }
    if (!this.options.allowPrivate) {
      for (const { address } of addresses) {
        if (this.options.allow?.(host, address)) continue;
        const reason = blockedReason(address);
        if (reason) throw refused(`${host} resolves to ${reason} (${address})`);
      }
    }
    return addresses[0] as ResolvedAddress;
  }

  /**
   * GET/HEAD with manual redirects; every hop is checked and pinned. The caller must consume or
   * destroy `response`. Non-2xx final answers are returned as they are.
   */
  async request(raw: string | URL, options: GuardedRequestOptions = {}): Promise<GuardedResponse> {
    let url = typeof raw === 'string' ? parseRemoteUrl(raw) : parseRemoteUrl(raw.href);
    let method = options.method ?? 'GET';
    for (let hop = 0; ; hop++) {
      const pinned = await this.check(url);
      const response = await this.once(url, pinned, method, options);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if ([301, 302, 303, 307, 308].includes(status) && location) {
        response.resume();
        if (hop >= this.maxRedirects) throw refused(`more than ${this.maxRedirects} redirects`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw unreachable('the server sent an invalid redirect');
        }
        url = parseRemoteUrl(next.href);
        if (status === 303 && method !== 'HEAD') method = 'GET';
        continue;
      }
      return { response, url };
    }
  }

  private once(
    url: URL,
    pinned: ResolvedAddress,
    method: string,
    options: GuardedRequestOptions,
  ): Promise<http.IncomingMessage> {
    const lookup: LookupFunction = (_hostname, opts, callback) => {
      if ((opts as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
      } else {
        callback(null, pinned.address, pinned.family);
      }
    };
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request(
        url,
        {
          method,
          lookup,
          headers: { 'user-agent': 'Clipnest URL upload', accept: '*/*', ...options.headers },
          signal: options.signal,
          agent: false,
        },
        (response) => {
          // After the headers: the same time limit between body chunks.
          response.setTimeout(this.timeoutMs, () =>
            response.destroy(unreachable(`no data for ${Math.round(this.timeoutMs / 1000)} s`)),
          );
          resolve(response);
        },
      );
      req.setTimeout(this.timeoutMs, () =>
        req.destroy(unreachable(`timed out after ${Math.round(this.timeoutMs / 1000)} s`)),
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error instanceof AppError) reject(error);
        else if (error.name === 'AbortError') reject(new AppError('VALIDATION', 'download cancelled'));
        else reject(unreachable(error.code ? `${error.code} ${error.message}` : error.message));
      });
      req.end();
    });
  }
}
