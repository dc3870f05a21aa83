import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress } from './clientAddress.js';

async function addressFor(forwardedFor: string | undefined, trustProxy: boolean, hops?: number): Promise<string> {
  const app = new Hono().get('/', (c) => c.text(clientAddress(c, trustProxy, hops)));
  const res = await app.request('/', {
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });
  return res.text();
}

describe('clientAddress', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY is on', async () => {
    // No socket behind app.request(): the peer is unknown.
    expect(await addressFor('203.0.113.1', false)).toBe('unknown');
  });

  it('takes the entry the trusted proxy appended (the rightmost), not what the client wrote on the left', async () => {
    expect(await addressFor('203.0.113.1', true)).toBe('203.0.113.1');
    expect(await addressFor('6.6.6.6, 7.7.7.7, 203.0.113.1', true)).toBe('203.0.113.1');
    expect(await addressFor(' 6.6.6.6 ,203.0.113.1 , ', true)).toBe('203.0.113.1');
    expect(await addressFor('2001:db8::1', true)).toBe('2001:db8::1');
  });

  it('counts TRUST_PROXY_HOPS proxies from the right', async () => {
    // client → CDN (appends the client) → nginx (appends the CDN) → app
    expect(await addressFor('6.6.6.6, 203.0.113.1, 198.51.100.7', true, 2)).toBe('203.0.113.1');
    // Fewer entries than hops: the leftmost there is.
    expect(await addressFor('203.0.113.1', true, 3)).toBe('203.0.113.1');
  });

  it('falls back to the peer when the header is missing or empty', async () => {
    expect(await addressFor(undefined, true)).toBe('unknown');
    expect(await addressFor(' , ', true)).toBe('unknown');
  });
});
