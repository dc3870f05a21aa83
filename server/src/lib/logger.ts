// Structured JSON logs (pino) on stdout, one object per line: `level`, `time`, `msg`, plus fields such as a
// request's `req_id`. Secrets never reach a line: known secret fields (`password`, `token`, `authorization`, …, at
// the top level or one level down) are censored, and every message, error text and string field that can hold a
// secret goes through `scrubSecrets` (bearer/API keys, passwords, tokens in query strings, presigned URLs'
// signatures and credentials). Plain fields (numbers, method, route pattern, request id, client address) are
// written as they are, so the access line stays cheap (docs/benchmarks.md, Request logging cost).
import { pino, type Logger as PinoLogger } from 'pino';

export type LogLevel = 'silent' | 'error' | 'info' | 'debug';

export type LogFields = Record<string, unknown>;

/** One request's access line (server/src/http/observability.ts), in the order it is written. */
export interface AccessLine {
  req_id: string;
  method: string;
  route: string;
  path: string;
  status: number;
  ms: number;
  bytes_in: number;
  bytes_out: number;
  client?: string | undefined;
}

export interface Logger {
  error(message: string, error?: unknown): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** A logger whose lines all carry `fields` (e.g. a request id). */
  child?(fields: LogFields): Logger;
  /**
   * The access line of a request: the same JSON line as `info('request', line)`, built without pino's generic
   * walk (one per request, the most frequent line by far; docs/benchmarks.md, Request logging cost).
   */
  access?(line: AccessLine): void;
  /** Whether lines of this level are written (callers skip building them otherwise). */
  enabled?(level: 'error' | 'info' | 'debug'): boolean;
  /** Resolves when every line logged so far has been written out (before the process exits). */
  flush?(): Promise<void>;
}

const REDACTED = '[redacted]';

const SECRET_PATTERNS: [RegExp, string][] = [
  // Presigned URLs (S3 SigV4/V2) and our own signed links.
  [/(X-Amz-(?:Signature|Credential|Security-Token)=)[^&\s"'<>]+/gi, `$1${REDACTED}`],
  [
    /([?&](?:Signature|AWSAccessKeyId|sign|sig|token|access_token|key|api_key|password|pwd)=)[^&\s"'<>]+/gi,
    `$1${REDACTED}`,
  ],
  // Authorization header values.
  [/\b(Bearer|ApiKey|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/g, `$1 ${REDACTED}`],
  // `password: x`, `"secret_key":"x"`, `token=x` in free text.
  [
    /((?:password|passwd|secret|secret_key|secretAccessKey|secret_access_key|access_key_id|accessKeyId|token|api_key|encryption_key)["']?\s*[:=]\s*["']?)[^"'\s,;&}]+/gi,
    `$1${REDACTED}`,
  ],
];

// Every pattern above needs a `=` or a `:`, or one of the three scheme words followed by white space: a text with
// none of them has nothing to scrub, and one test finds that out (the access line's fields never match).
const MAY_HOLD_SECRET = /[=:]|(?:Bearer|ApiKey|Basic)\s/;

/** The text with every secret it is known to carry replaced by `[redacted]`. */
export function scrubSecrets(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Fields whose value is censored whole, at the top level or one level down (e.g. `{ config: { secret_key } }`). */
const SECRET_KEYS = new Set([
  'authorization',
  'cookie',
  'password',
  'token',
  'secret',
  'secret_key',
  'secretAccessKey',
  'encryption_key',
  'api_key',
]);

/**
 * Fields that never hold a secret: numbers, the method, the matched route pattern, a request id (checked against
 * a strict pattern by the access log), a client address. Their strings are written as they are; every other
 * string field (a path, a URL, an error text) is scrubbed.
 */
const PLAIN_KEYS = new Set(['req_id', 'method', 'route', 'status', 'ms', 'bytes_in', 'bytes_out', 'client']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !(value instanceof Error) && !Buffer.isBuffer(value);
}

/** The object with its secret keys censored (a copy only when it has one). */
function censorKeys(value: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value))
    if (SECRET_KEYS.has(key) && value[key] !== undefined) (out ??= { ...value })[key] = REDACTED;
  return out ?? value;
}

function censorNested(value: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item: unknown) => (isObject(item) ? censorKeys(item) : item));
  return censorKeys(value);
}

/**
 * The fields as written: secret keys censored (top level and one level down), string values scrubbed unless the
 * key is a plain one. One pass over the fields; nested objects are copied only when they hold a secret key.
 */
function scrubFields(fields: LogFields | undefined): LogFields {
  const out: LogFields = {};
  if (!fields) return out;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (SECRET_KEYS.has(key)) out[key] = value === undefined ? value : REDACTED;
    else if (typeof value === 'string') out[key] = PLAIN_KEYS.has(key) ? value : scrubSecrets(value);
    else out[key] = isObject(value) ? censorNested(value) : value;
  }
  return out;
}

function errorFields(error: unknown): LogFields {
  if (error === undefined || error === null || error === '') return {};
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      err: {
        type: error.name,
        message: scrubSecrets(error.message),
        ...(typeof code === 'string' ? { code } : {}),
        ...(error.stack ? { stack: scrubSecrets(error.stack) } : {}),
      },
    };
  }
  return { err: { message: scrubSecrets(typeof error === 'string' ? error : String(error)) } };
}

function wrap(base: PinoLogger): Logger {
  return {
    error: (message, error) => base.error(errorFields(error), scrubSecrets(message)),
    info: (message, fields) => {
      if (base.isLevelEnabled('info')) base.info(scrubFields(fields), scrubSecrets(message));
    },
    debug: (message, fields) => {
      if (base.isLevelEnabled('debug')) base.debug(scrubFields(fields), scrubSecrets(message));
    },
    child: (fields) => wrap(base.child(scrubFields(fields))),
    enabled: (level) => base.isLevelEnabled(level),
    flush: () => flushBase(base),
  };
}

/** Writes out whatever the logger's destination still buffers (a no-op for a synchronous one). */
function flushBase(base: PinoLogger): Promise<void> {
  return new Promise((resolve) => {
    try {
      base.flush(() => resolve());
    } catch {
      resolve();
    }
  });
}

/**
 * Lines wait in memory until this many bytes (~130 access lines) or the next tick of FLUSH_EVERY_MS: each write
 * is a trip to libuv's thread pool, whose thread takes the server's core a while; with small batches the writes
 * were a visible share of a loaded server's CPU (docs/benchmarks.md, Figures moved out of the code).
 */
const BUFFER_BYTES = 32 * 1024;
const FLUSH_EVERY_MS = 250;

/**
 * The app's logger. Default destination: stdout, written asynchronously (pino's own SonicBoom): lines are
 * buffered up to BUFFER_BYTES and written together, and whatever is buffered goes out every FLUSH_EVERY_MS, so
 * a quiet server's line is on stdout within a quarter of a second. `flush()` (on shutdown) and pino's own exit
 * hook write out what is left; a SIGKILL loses at most the last quarter second of lines. `destination` is for
 * tests (written synchronously, one call per line).
 */
export function createLogger(level: LogLevel, destination?: { write(line: string): void }): Logger {
  let stream = destination;
  if (!stream) {
    // Buffer mode: each line becomes a Buffer of its own. In its default (string) mode SonicBoom appends every line
    // to one pending string and measures that whole string's UTF-8 length again at each write: a copy of up to
    // BUFFER_BYTES per line, the largest single cost of an access line under load (docs/benchmarks.md).
    const stdout = pino.destination({
      dest: 1,
      sync: false,
      minLength: BUFFER_BYTES,
      maxWrite: 4 * BUFFER_BYTES,
      contentMode: 'buffer',
    });
    // `_len`: the bytes SonicBoom holds (buffered or being written); nothing to do on an idle tick.
    const pending = stdout as unknown as { _len?: number; destroyed?: boolean };
    setInterval(() => {
      if (pending._len !== 0 && !pending.destroyed) stdout.flush();
    }, FLUSH_EVERY_MS).unref();
    const writeBytes = stdout.write.bind(stdout) as unknown as (bytes: Buffer) => boolean;
    stream = {
      write: (line: string) => void writeBytes(Buffer.from(line)),
      flush: (done?: (error?: Error) => unknown) => stdout.flush(done),
      flushSync: () => stdout.flushSync(),
    } as { write(line: string): void };
  }
  const base = pino(
    {
      level,
      base: { app: 'clipnest' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    stream,
  );
  const logging = base.isLevelEnabled('info');
  const out = stream;
  const access = (line: AccessLine) => {
    if (logging) out.write(accessLine(line));
  };
  return { ...wrap(base), access };
}

let isoMs = 0;
let iso = '';
/** The time as pino's `isoTime` writes it, made once per millisecond (many access lines share one). */
function isoNow(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    iso = new Date(now).toISOString();
  }
  return iso;
}

/** The JSON line pino writes for `info('request', line)`: same keys, same order; the path scrubbed like a field. */
export function accessLine(line: AccessLine): string {
  const client = line.client === undefined ? '' : `,"client":${JSON.stringify(line.client)}`;
  return (
    `{"level":"info","time":"${isoNow()}","app":"clipnest","req_id":${JSON.stringify(line.req_id)},` +
    `"method":${JSON.stringify(line.method)},"route":${JSON.stringify(line.route)},` +
    `"path":${JSON.stringify(scrubSecrets(line.path))},"status":${line.status},"ms":${line.ms},` +
    `"bytes_in":${line.bytes_in},"bytes_out":${line.bytes_out}${client},"msg":"request"}\n`
  );
}
