import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type DbTarget, type TestServer } from './harness.js';

/**
 * The usual prelude of an integration file: before its tests, a test server on `target` with the admin logged in
 * (handed to `use`, which keeps them in the file's `server` / `token`); after them, the server closed.
 */
export function withAdminServer(target: DbTarget, use: (started: { server: TestServer; token: string }) => void): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(target);
    use({ server, token: await server.login() });
  });
  afterAll(async () => {
    await server?.close();
  });
}
