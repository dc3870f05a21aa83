import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { blockedReason, parseRemoteUrl, SsrfGuard } from './ssrfGuard.js';

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', /loopback/],
    ['127.8.9.10', /loopback/],
    ['::1', /loopback/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /metadata|link-local/],
    ['169.254.1.1', /link-local/],
    ['100.64.0.1', /carrier-grade/],
    ['224.0.0.1', /multicast/],
    ['0.0.0.0', /unspecified/],
    ['::', /unspecified/],
    ['fd00:ec2::254', /metadata/],
    ['fc00::1', /unique local/],
    ['fe80::1', /link-local/],
    ['ff02::1', /multicast/],
    ['::ffff:127.0.0.1', /IPv4-mapped .*loopback/],
    ['::ffff:10.0.0.1', /IPv4-mapped .*private/],
    ['255.255.255.255', /broadcast/],
  ])('refuses %s', (address, reason) => {
    expect(blockedReason(address)).toMatch(reason);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(blockedReason(address)).toBeNull();
  });
});

describe('parseRemoteUrl', () => {
  it.each(['file:///etc/passwd', 'gopher://example.com/1', 'ftp://example.com/x', 'javascript:alert(1)', 'not a url'])(
    'refuses %s',
    (url) => {
      expect(() => parseRemoteUrl(url)).toThrow(AppError);
    },
  );
  it('refuses credentials in the URL', () => {
    expect(() => parseRemoteUrl('http://user:pw@example.com/')).toThrow(/credentials/);
  });
});

describe('SsrfGuard.check', () => {
  it('checks every resolved address, not only the first', async () => {
    const guard = new SsrfGuard({
      allowPrivate: false,
      resolve: async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
    });
    await expect(guard.check(new URL('http://mixed.example/'))).rejects.toThrow(/10\.0\.0\.5/);
  });

  it('answers the checked address to pin the connection to', async () => {
    const guard = new SsrfGuard({ allowPrivate: false, resolve: async () => [{ address: '8.8.8.8', family: 4 }] });
    expect(await guard.check(new URL('https://dns.example/'))).toEqual({ address: '8.8.8.8', family: 4 });
  });

  it('lets private addresses through with allowPrivate', async () => {
    const guard = new SsrfGuard({ allowPrivate: true });
    expect(await guard.check(new URL('http://127.0.0.1:9/'))).toEqual({ address: '127.0.0.1', family: 4 });
  });
});
