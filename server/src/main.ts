import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { ConfigError, loadConfig, type Config } from './config.js';
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

let stopping = false;
function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info(`${signal} received, shutting down`);
  server.close(() => {
    built.close().finally(() => process.exit(0));
  });
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
