// Raw HTTP clients that send or read at a chosen pace (idle and total timeout tests).
import { request } from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface SlowResult {
  /** 0 when the server closed the connection without an answer. */
  status: number;
  body: string;
}

/** A multipart form as parts: text fields, then one file part whose bytes the caller sends. */
export function formParts(fields: Record<string, string>, filename: string, boundary = 'slowclientboundary') {
  const head = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: Buffer.from(
      `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
  };
}

/**
 * Sends `head`, then `chunks` chunks of `chunkBytes` with `gapMs` between them, then `tail` (unless
 * `stallAfter` chunks: then it stops sending and waits for the server to answer or hang up).
 */
export function trickle(
  url: string,
  options: {
    method?: string;
    headers: Record<string, string>;
    head: Buffer;
    tail: Buffer;
    chunks: number;
    chunkBytes: number;
    gapMs: number;
    stallAfter?: number;
  },
): Promise<SlowResult> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? 'POST',
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', () => resolve({ status: 0, body: '' }));
    void (async () => {
      req.write(options.head);
      for (let i = 0; i < options.chunks; i++) {
        if (options.stallAfter !== undefined && i >= options.stallAfter) return;
        await sleep(options.gapMs);
        if (req.destroyed) return;
        req.write(Buffer.alloc(options.chunkBytes, 65 + (i % 26)));
      }
      req.end(options.tail);
    })();
  });
}

/**
 * GETs `path` and reads nothing for `pauseMs`, then reads to the end. Answers the bytes received after
 * the headers: fewer than the body's size when the server hung up on the silent client.
 */
export function pausedDownload(url: string, headers: Record<string, string>, pauseMs: number): Promise<number> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(target.port), target.hostname);
    let head = Buffer.alloc(0);
    let bodyBytes = -1;
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.write(
        `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n${lines.join('')}Connection: close\r\n\r\n`,
      );
      socket.pause();
      setTimeout(() => {
        socket.on('data', (d: Buffer) => {
          if (bodyBytes >= 0) {
            bodyBytes += d.length;
            return;
          }
          head = Buffer.concat([head, d]);
          const end = head.indexOf('\r\n\r\n');
          if (end >= 0) bodyBytes = head.length - end - 4;
        });
        socket.resume();
      }, pauseMs);
    });
    socket.once('close', () => (bodyBytes < 0 ? reject(new Error('no response headers')) : resolve(bodyBytes)));
  });
}
