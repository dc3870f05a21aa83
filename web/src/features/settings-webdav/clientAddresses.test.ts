import { describe, expect, it } from 'vitest';
import { clientAddresses } from './clientAddresses';

describe('clientAddresses', () => {
  it('spells the address per client, with the trailing slash where it matters', () => {
    const byClient = Object.fromEntries(
      clientAddresses(new URL('https://files.example.com')).map((a) => [a.client, a.address]),
    );
    expect(byClient.windows).toBe('https://files.example.com/dav/');
    expect(byClient.rclone).toBe('https://files.example.com/dav');
    expect(byClient.davfs2).toBe('https://files.example.com/dav/');
    expect(byClient.linuxFiles).toBe('davs://files.example.com/dav/');
  });

  it('keeps a port and a path prefix, and plain http as dav://', () => {
    const byClient = Object.fromEntries(
      clientAddresses(new URL('http://127.0.0.1:8787/clip/')).map((a) => [a.client, a.address]),
    );
    expect(byClient.macos).toBe('http://127.0.0.1:8787/clip/dav/');
    expect(byClient.rclone).toBe('http://127.0.0.1:8787/clip/dav');
    expect(byClient.linuxFiles).toBe('dav://127.0.0.1:8787/clip/dav/');
  });
});
