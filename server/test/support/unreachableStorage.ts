// The "server is down" and "server never answers" checks every remote storage type's tests make: a config pointed
// at a port, mounted, listed through the fs API, answered with 503 and a `kind` within 15 s.
import type { StorageConfigView } from '@clipnest/contract';
import net from 'node:net';
import { expect } from 'vitest';
import type { TestServer } from './harness.js';
import { createMount } from './mounts.js';
import { freePort } from './s3Emulator.js';
import { startTcpProxy } from './tcpProxy.js';

/** Makes a config body of the type under test for a server on 127.0.0.1:`port`. */
export type ConfigAt = (port: number, name: string) => Record<string, unknown>;

/** Creates the config and mounts it at `/<name>`. */
async function mountAt(
  server: TestServer,
  token: string,
  body: Record<string, unknown>,
  name: string,
  mount: Record<string, unknown> = {},
): Promise<void> {
  const created = await server.call<StorageConfigView>('POST', '/api/s3-configs', { token, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await createMount(server, token, { path: `/${name}`, storage_config_id: created.body.data!.id, ...mount });
}

/** Mounts a config of `configAt(port)` at `/<name>` and checks its listing fails with 503 and a kind within 15 s. */
export async function expectUnavailableWithin15s(
  server: TestServer,
  token: string,
  configAt: ConfigAt,
  port: number,
  name: string,
): Promise<void> {
  await mountAt(server, token, configAt(port, name), name);
  const started = Date.now();
  const res = await server.call('GET', `/api/fs/list?path=%2F${name}`, { token });
  expect(Date.now() - started).toBeLessThan(15_000);
  expect(res.status).toBe(503);
  expect((res.body as { kind?: string }).kind).toBeTruthy();
}

/** A port nothing listens on. */
export async function downCheck(server: TestServer, token: string, configAt: ConfigAt, name = 'down'): Promise<void> {
  await expectUnavailableWithin15s(server, token, configAt, await freePort(), name);
}

/** A server that accepts connections and never says a word. */
export async function muteCheck(server: TestServer, token: string, configAt: ConfigAt, name = 'mute'): Promise<void> {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    await expectUnavailableWithin15s(server, token, configAt, (silent.address() as net.AddressInfo).port, name);
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
}

/**
 * A mount through a TCP proxy to the real server at `upstreamPort`: it lists, fails with 503 within 15 s once the
 * proxy cuts every connection, and lists again once it lets them through (pooled connections are dropped, not
 * reused dead).
 */
export async function recoveryCheck(
  server: TestServer,
  token: string,
  configAt: ConfigAt,
  upstreamPort: number,
  name = 'flaky',
): Promise<void> {
  const proxy = await startTcpProxy({ host: '127.0.0.1', port: upstreamPort });
  try {
    await mountAt(server, token, configAt(proxy.port, name), name, { cache_ttl: 0 });
    const list = () => server.call('GET', `/api/fs/list?path=%2F${name}&refresh=true`, { token });
    expect((await list()).status).toBe(200);
    await proxy.cut();
    const started = Date.now();
    expect((await list()).status).toBe(503);
    expect(Date.now() - started).toBeLessThan(15_000);
    await proxy.restore();
    expect((await list()).status).toBe(200);
  } finally {
    await proxy.close();
  }
}
