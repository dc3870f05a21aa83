// A small keep-alive HTTP/1.1 load generator in plain Node (for machines without wrk): `connections` sockets,
// each sending the next GET as soon as the previous answer is complete (no pipelining). Answers are framed by
// Content-Length or chunked encoding. Run it in a process of its own (see the end of this file; it prints JSON)
// so it does not share an event loop with the bench, pinned to the client CPUs.
import net from 'node:net';

/**
 * `paths`: connection i asks for paths[i % n], then the next one, and so on (default: the URL's own path).
 * @returns {Promise<{ rps: number, requests: number, non2xx: number, errors: number }>}
 */
export function load(url, { seconds = 10, connections = 64, headers = {}, paths } = {}) {
  const u = new URL(url);
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const requests_ = (paths ?? [`${u.pathname}${u.search}`]).map((p) =>
    Buffer.from(`GET ${p} HTTP/1.1\r\nHost: ${u.host}\r\n${extra}\r\n`),
  );
  let requests = 0;
  let non2xx = 0;
  let errors = 0;
  let stopping = false;
  const sockets = [];
  const started = performance.now();
  return new Promise((resolve) => {
    let open = connections;
    const finish = () => {
      if (--open > 0) return;
      const elapsed = (performance.now() - started) / 1000;
      resolve({ rps: requests / elapsed, requests, non2xx, errors });
    };
    for (let i = 0; i < connections; i++) {
      const socket = net.connect(Number(u.port), u.hostname);
      socket.setNoDelay(true);
      sockets.push(socket);
      let buf = Buffer.alloc(0);
      let next = i;
      const send = () => (stopping ? socket.end() : socket.write(requests_[next++ % requests_.length]));
      socket.on('connect', send);
      socket.on('data', (chunk) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        for (;;) {
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = buf.subarray(0, end).toString('latin1');
          const status = Number(head.slice(9, 12));
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          let total;
          if (length) total = end + 4 + Number(length[1]);
          else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
            const last = buf.indexOf('\r\n0\r\n\r\n', end);
            if (last < 0) return;
            total = last + 7;
          } else total = end + 4;
          if (buf.length < total) return;
          buf = buf.subarray(total);
          requests++;
          if (status < 200 || status >= 400) non2xx++;
          send();
        }
      });
      socket.on('error', () => errors++);
      socket.on('close', finish);
    }
    setTimeout(() => {
      stopping = true;
      for (const s of sockets) setTimeout(() => s.destroy(), 500).unref();
    }, seconds * 1000);
  });
}

// `node bench/lib/load.mjs '{"url": …, "seconds": 10, "connections": 64, "paths": […], "headers": {…}}'`
if (import.meta.url === `file://${process.argv[1]}`) {
  const { url, ...options } = JSON.parse(process.argv[2]);
  console.log(JSON.stringify(await load(url, options)));
}
