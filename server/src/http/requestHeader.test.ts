import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { requestHeader } from './requestHeader.js';

function appEchoing(name: Lowercase<string>) {
  const app = new Hono();
  app.get('/', (c) => c.text(String(requestHeader(c, name))));
  return app;
}

describe('requestHeader', () => {
  it("reads Node's parsed headers when the request came through Node", async () => {
    const incoming = { headers: { 'accept-encoding': 'br, gzip', 'x-list': ['a', 'b'] } };
    const env = { incoming };
    const get = async (name: Lowercase<string>) => (await appEchoing(name).request('/', {}, env)).text();
    expect(await get('accept-encoding')).toBe('br, gzip');
    expect(await get('x-list')).toBe('a, b');
    expect(await get('authorization')).toBe('undefined');
  });

  it("falls back to Hono's own headers elsewhere", async () => {
    const res = await appEchoing('authorization').request('/', { headers: { Authorization: 'Bearer x' } });
    expect(await res.text()).toBe('Bearer x');
  });
});
