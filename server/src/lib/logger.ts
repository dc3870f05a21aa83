// Structured JSON logs (pino) on stdout, one object per line: `level`, `time`, `msg`, plus fields such as a
// request's `req_id`. Secrets never reach a line: known secret fields are censored by pino's `redact`, and every
// message, error text and string field goes through `scrubSecrets` (bearer/API keys, passwords, tokens in query
// strings, presigned URLs' signatures and credentials).
import { pino, type Logger as PinoLogger } from 'pino';

export type LogLevel = 'silent' | 'error' | 'info' | 'debug';

export type LogFields = Record<string, unknown>;

export interface Logger {
  error(message: string, error?: unknown): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  /** A logger whose lines all carry `fields` (e.g. a request id). */
  child?(fields: LogFields): Logger;
  /** Whether lines of this level are written (callers skip building them otherwise). */
  enabled?(level: 'error' | 'info' | 'debug'): boolean;
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

/** The text with every secret it is known to carry replaced by `[redacted]`. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

const REDACT_PATHS = [
  'authorization',
  'cookie',
  'password',
  'token',
  'secret',
  'secret_key',
  'secretAccessKey',
  'encryption_key',
  'api_key',
  '*.authorization',
  '*.cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.secret_key',
  '*.secretAccessKey',
  '*.encryption_key',
  '*.api_key',
];

function scrubFields(fields: LogFields | undefined): LogFields | undefined {
  if (!fields) return undefined;
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) out[key] = typeof value === 'string' ? scrubSecrets(value) : value;
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
      if (base.isLevelEnabled('info')) base.info(scrubFields(fields) ?? {}, scrubSecrets(message));
    },
    debug: (message, fields) => {
      if (base.isLevelEnabled('debug')) base.debug(scrubFields(fields) ?? {}, scrubSecrets(message));
    },
    child: (fields) => wrap(base.child(scrubFields(fields) ?? {})),
    enabled: (level) => base.isLevelEnabled(level),
  };
}

/** The app's logger; `destination` is for tests (default: stdout, written synchronously). */
export function createLogger(level: LogLevel, destination?: { write(line: string): void }): Logger {
  const base = pino(
    {
      level,
      base: { app: 'clipnest' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
  return wrap(base);
}
