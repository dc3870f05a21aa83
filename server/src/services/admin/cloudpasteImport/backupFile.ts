import { createHash, type Hash } from 'node:crypto';
import { AppError } from '../../../errors.js';

/** A CloudPaste row as exported: SQLite values (booleans as 0/1, times as text). */
export type CloudpasteRow = Record<string, unknown>;

export interface CloudpasteMetadata {
  version: string;
  timestamp: string;
  backup_type: string;
  schema_version: string;
  total_records: number;
  tables: Record<string, number>;
  checksum: string;
}

export interface CloudpasteBackup {
  metadata: CloudpasteMetadata;
  data: Record<string, CloudpasteRow[]>;
}

/** The backup format version CloudPaste 1.x writes. */
export const SUPPORTED_VERSION = '1.0';
/** The newest database schema read here (CloudPaste 1.9.1); older 1.x schemas are read with a warning. */
export const NEWEST_SCHEMA = 34;

function refuse(message: string): AppError {
  return AppError.validation(`not imported, nothing was changed: ${message}`, [{ path: 'backup', message }]);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The file text parsed; a cut-off file is named as such. */
function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message;
    // A cut-off file fails at its very end ("Unexpected end of JSON input", or "… at position <length>").
    const position = /position (\d+)/.exec(reason)?.[1];
    const atEnd =
      /end of (JSON|data)|Unterminated|Unexpected end/i.test(reason) ||
      (position !== undefined && Number(position) >= text.trimEnd().length - 1);
    if (atEnd && text.trim().startsWith('{')) {
      throw refuse(`the backup file is truncated (its JSON ends early: ${reason}); export it again`);
    }
    throw refuse(`the file is not a CloudPaste backup (not JSON: ${reason})`);
  }
}

/**
 * Feeds `JSON.stringify(value)` with object keys sorted (recursively, array order kept) into the hash,
 * piece by piece: no second copy of a large backup is built.
 */
function hashSorted(value: unknown, hash: Hash, out: { buf: string }): void {
  const write = (s: string) => {
    out.buf += s;
    if (out.buf.length >= 65536) {
      hash.update(out.buf);
      out.buf = '';
    }
  };
  if (Array.isArray(value)) {
    write('[');
    value.forEach((item, i) => {
      if (i > 0) write(',');
      if (item === undefined || typeof item === 'function') write('null');
      else hashSorted(item, hash, out);
    });
    write(']');
  } else if (isObject(value)) {
    write('{');
    let first = true;
    for (const key of Object.keys(value).sort()) {
      const item = value[key];
      if (item === undefined || typeof item === 'function') continue;
      write(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      hashSorted(item, hash, out);
    }
    write('}');
  } else {
    write(JSON.stringify(value) ?? 'null');
  }
}

/** CloudPaste's checksum: the first 16 hex of SHA-256 over the key-sorted `data`. */
export function cloudpasteChecksum(data: unknown): string {
  const hash = createHash('sha256');
  const out = { buf: '' };
  hashSorted(data, hash, out);
  hash.update(out.buf);
  return hash.digest('hex').slice(0, 16);
}

/** Checks that `raw` is a whole, unmodified CloudPaste 1.x backup; 400 naming the problem otherwise. */
export function readBackup(raw: string | Record<string, unknown>): { backup: CloudpasteBackup; warnings: string[] } {
  const parsed = typeof raw === 'string' ? parseText(raw) : raw;
  if (!isObject(parsed)) throw refuse('the file is not a CloudPaste backup (it is not a JSON object)');
  if (parsed.format === 'clipnest-backup') {
    throw refuse('this is a Clipnest backup: restore it under Backup → Restore instead');
  }
  const { metadata, data } = parsed;
  if (!isObject(metadata) || !isObject(data)) {
    throw refuse('the file is not a CloudPaste backup (it has no "metadata" and "data" objects)');
  }
  if (metadata.version !== SUPPORTED_VERSION) {
    throw refuse(
      `unknown backup version ${JSON.stringify(metadata.version ?? null)}: this importer reads CloudPaste backups of version ${SUPPORTED_VERSION}`,
    );
  }
  const schemaText = String(metadata.schema_version ?? '');
  const schema = /^\d{1,4}$/.test(schemaText) ? Number(schemaText) : NaN;
  if (!(schema >= 1 && schema <= NEWEST_SCHEMA)) {
    throw refuse(
      `unknown schema_version ${JSON.stringify(metadata.schema_version ?? null)}: this importer knows CloudPaste schemas up to ${NEWEST_SCHEMA} (CloudPaste 1.9.1)`,
    );
  }
  if (metadata.backup_type !== 'full' && metadata.backup_type !== 'modules') {
    throw refuse(`unknown backup_type ${JSON.stringify(metadata.backup_type ?? null)} (expected full or modules)`);
  }
  for (const [table, rows] of Object.entries(data)) {
    if (!Array.isArray(rows) || rows.some((row) => !isObject(row))) {
      throw refuse(`table ${table} is not a list of rows`);
    }
  }
  const declared = isObject(metadata.tables) ? metadata.tables : {};
  for (const [table, count] of Object.entries(declared)) {
    const rows = data[table] as unknown[] | undefined;
    if (typeof count === 'number' && (rows?.length ?? 0) !== count) {
      throw refuse(
        `the backup is truncated or was edited: metadata lists ${count} rows in ${table}, the data holds ${rows?.length ?? 0}`,
      );
    }
  }
  if (typeof metadata.checksum !== 'string' || !/^[0-9a-f]{16}$/i.test(metadata.checksum)) {
    throw refuse('the backup has no checksum (metadata.checksum)');
  }
  const actual = cloudpasteChecksum(data);
  if (actual !== metadata.checksum.toLowerCase()) {
    throw refuse(
      `checksum mismatch: metadata.checksum is ${metadata.checksum}, the data gives ${actual} (the file was changed or damaged)`,
    );
  }
  const warnings =
    schema < NEWEST_SCHEMA
      ? [
          `the backup comes from an older CloudPaste (schema ${schema}); it was tested with schema ${NEWEST_SCHEMA} (1.9.1)`,
        ]
      : [];
  return {
    backup: {
      metadata: {
        version: SUPPORTED_VERSION,
        timestamp: String(metadata.timestamp ?? ''),
        backup_type: metadata.backup_type,
        schema_version: schemaText,
        total_records: typeof metadata.total_records === 'number' ? metadata.total_records : 0,
        tables: declared as Record<string, number>,
        checksum: metadata.checksum,
      },
      data: data as Record<string, CloudpasteRow[]>,
    },
    warnings,
  };
}
