// A bare Node relay for the storage bench: the least any Node HTTP server has to do to pass a transfer between an
// HTTP client and a remote server (no auth, no paths, no vfs, no metering), so the bench can show how much of the
// gap to a direct client is Clipnest's and how much is any Node process in the middle. Run as a child process
// (the bench itself blocks in spawnSync while curl runs): `node relay.mjs http <base url> <user> <password>` or
// `node relay.mjs ftp <host> <port> <user> <password> <folder>`; it prints its port, serves GET and PUT of
// /<name> on 127.0.0.1, and ends with its parent.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

/** Starts the relay as a child process; resolves with its base URL (ends in '/') and a stop function. */
export function startRelay(args) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args.map(String)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`relay exited with ${code}`)));
    child.stdout.once('data', (d) =>
      resolve({
        url: `http://127.0.0.1:${String(d).trim()}/`,
        stop: async () => {
          child.kill();
        },
      }),
    );
  });
}

function httpRelay(base, user, password) {
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  return (req, res) => {
    const headers = { authorization };
    if (req.headers['content-length']) headers['content-length'] = req.headers['content-length'];
    const up = http.request(new URL(req.url.slice(1), base), { method: req.method, headers }, (answer) => {
      const out = answer.headers['content-length'] ? { 'content-length': answer.headers['content-length'] } : {};
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
}

async function ftpRelay(host, port, user, password, folder) {
  const { Client } = await import('basic-ftp');
  return async (req, res) => {
    const client = new Client(0);
    try {
      await client.access({ host, port: Number(port), user, password });
      const remote = `${folder}/${req.url.slice(1)}`;
      if (req.method === 'PUT') {
        await client.uploadFrom(req, remote);
        res.end();
      } else {
        const size = await client.size(remote);
        res.writeHead(200, { 'content-length': size });
        await client.downloadTo(res, remote);
      }
    } catch {
      res.destroy();
    } finally {
      client.close();
    }
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [kind, ...rest] = process.argv.slice(2);
  const handler = kind === 'ftp' ? await ftpRelay(...rest) : httpRelay(...rest);
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
  // Ends with the bench: a relay left behind would hold its port.
  setInterval(() => {
    if (process.ppid === 1) process.exit(0);
  }, 1000).unref();
  process.on('SIGTERM', () => process.exit(0));
}
