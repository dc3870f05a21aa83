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

  // IPv6 forms that embed an IPv4 address are judged by the embedded address. Addresses are
  // written as the URL parser hands them over (`[::127.0.0.1]` becomes `::7f00:1`).
  it.each([
    ['::7f00:1', /IPv4-compatible a loopback address \(127\.0\.0\.1\)/],
    ['::a00:1', /IPv4-compatible a private address/],
    ['::5', /IPv4-compatible an unspecified address \(0\.0\.0\.5\)/],
    ['::a9fe:a9fe', /IPv4-compatible a cloud metadata address/],
    ['::ffff:7f00:1', /IPv4-mapped a loopback/],
    ['::ffff:0:7f00:1', /IPv4-translated a loopback/],
    ['::ffff:0:a00:1', /IPv4-translated a private/],
    ['64:ff9b::7f00:1', /NAT64 a loopback/],
    ['64:ff9b::a9fe:a9fe', /NAT64 a cloud metadata/],
    ['64:ff9b:1::7f00:1', /NAT64 \(local-use\)/],
    ['64:ff9b:1:7f00:0:100::', /NAT64 \(local-use\) a loopback/],
    ['2002:7f00:1::', /6to4 a loopback/],
    ['2002:c0a8:101::1', /6to4 a private address \(192\.168\.1\.1\)/],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', /Teredo a loopback address \(127\.0\.0\.1\)/],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', /Teredo a private address \(10\.0\.0\.1\)/],
    ['2001::', /Teredo a broadcast/],
  ])('refuses the embedding form %s', (address, reason) => {
    expect(blockedReason(address)).toMatch(reason);
  });

  it.each([
    '::808:808', // IPv4-compatible 8.8.8.8
    '::ffff:0:808:808', // IPv4-translated 8.8.8.8
    '64:ff9b::808:808', // NAT64 8.8.8.8
    '2002:808:808::1', // 6to4 8.8.8.8
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo client 8.8.8.8
  ])('allows the embedding form %s of a public address', (address) => {
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
