import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { ConfigError, loadConfig, type Config } from './config.js';
import { closeWhenIdle } from './http/closeServer.js';
import { applyHttpTimeouts } from './http/timeouts.js';
import { buildServer, httpTimeoutsOf } from './server.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig(process.env, { webDistDir: path.resolve(here, '../../web/dist') });
} catch (error) {
  fail(error instanceof ConfigError ? error.message : `Invalid configuration: ${String(error)}`);
}

const built = await buildServer(config).catch((error: unknown) =>
  fail(`Clipnest could not start: ${error instanceof Error ? error.message : String(error)}`),
);
const { logger } = built;

if (built.createdAdmin) {
  const { username, password, generated } = built.createdAdmin;
  const lines = generated
    ? [
        'First start: an admin account was created.',
        `  username: ${username}`,
        `  password: ${password}`,
        'This password is shown only once: log in and change it under Admin → Account.',
      ]
    : [`First start: the admin account "${username}" was created from ADMIN_USERNAME/ADMIN_PASSWORD.`];
  console.log(['', ...lines, ''].join('\n'));
}
if (built.generatedEncryptionKey) {
  logger.info(
    `generated a new encryption key in ${path.join(config.dataDir, 'encryption.key')}; back it up with the data`,
  );
}

const server: ServerType = serve({ fetch: built.fetch, port: config.port, hostname: config.host }, (info) => {
  const shown = config.host.includes(':') ? `[${config.host}]` : config.host;
  logger.info(
    `Clipnest ${built.services.system.version().version} listening on http://${shown}:${info.port} (${built.database.dialect}, data in ${config.dataDir})`,
  );
});
applyHttpTimeouts(server, httpTimeoutsOf(config));
server.on('error', (error: NodeJS.ErrnoException) => {
  fail(
    error.code === 'EADDRINUSE'
      ? `Port ${config.port} on ${config.host} is already in use: set PORT to another port.`
      : `Could not listen on ${config.host}:${config.port}: ${error.message}`,
  );
});

// METRICS_PORT: /metrics (no token) on a port of its own, for a scraper on a private network.
let metricsServer: ServerType | undefined;
const { metrics } = built;
if (config.metricsPort !== undefined && metrics) {
  metricsServer = serve(
    {
      fetch: async (request) =>
        new URL(request.url).pathname === '/metrics'
          ? new Response(await metrics.text(), { headers: { 'content-type': metrics.contentType } })
          : new Response('not found\n', { status: 404 }),
      port: config.metricsPort,
      hostname: config.host,
    },
    (info) => logger.info(`metrics on http://${config.host}:${info.port}/metrics`),
  );
  metricsServer.on('error', (error: Error) =>
    fail(`Could not serve metrics on port ${config.metricsPort}: ${error.message}`),
  );
}

// Graceful stop: no new connections (readiness answers 503 meanwhile), in-flight requests and uploads finish
// within SHUTDOWN_TIMEOUT (idle keep-alive connections are closed as they become idle), then counters are
// flushed, running tasks handed back to the other instances, and the process exits 0.
let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  const timeoutMs = config.shutdownTimeoutMs;
  built.services.system.markStopping();
  logger.info(`${signal} received: finishing in-flight requests (up to ${timeoutMs / 1000} s), then stopping`);
  // A last resort: whatever hangs, the process ends.
  setTimeout(() => process.exit(0), timeoutMs + 15_000).unref();
  if (!(await closeWhenIdle(server, timeoutMs))) {
    logger.info('shutdown timeout: closed the connections still open (their uploads are discarded)');
  }
  metricsServer?.close();
  try {
    await built.close();
  } catch (error) {
    logger.error('shutdown: closing the services failed', error);
  }
  logger.info('stopped');
  // Log lines are written asynchronously: out with the last ones before exiting.
  await logger.flush?.();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
