import type { CloudpasteConflictMode } from '@clipnest/contract';
import type { CloudpasteImportLookup, CloudpasteImportRows } from '../../../repositories/cloudpasteImportRepository.js';
import type { StorageEndpointGuard } from '../../../net/storageEndpointGuard.js';
import type { SecretCipher } from '../../../security/cipher.js';
import type { ReportBuilder } from './report.js';

/** Rows the import writes, in one transaction, in this order (the repository's `write` takes them as they are). */
export type ImportWrites = CloudpasteImportRows;

export function emptyWrites(): ImportWrites {
  return { storage_configs: [], api_keys: [], pastes: [], files: [], mounts: [], settings: [], defaultConfigId: null };
}

/** Where a CloudPaste storage config stands after the import (rows that depend on it follow it). */
export type ConfigState =
  | { ok: true; type: string; name: string; root: string | null }
  | { ok: false; name: string; reason: string; unsupported: boolean };

export interface ImportContext {
  adminId: string;
  now: string;
  dryRun: boolean;
  onConflict: CloudpasteConflictMode;
  cipher: SecretCipher;
  /** The server's storage endpoint guard (the API's rules for an S3 endpoint). */
  endpointGuard: Pick<StorageEndpointGuard, 'endpointBlocked'>;
  lookup: CloudpasteImportLookup;
  report: ReportBuilder;
  writes: ImportWrites;
  /** CloudPaste storage config id → its state here. */
  configs: Map<string, ConfigState>;
  /** CloudPaste admin ids: their rows are credited to the Clipnest admin who imports. */
  cloudpasteAdmins: Set<string>;
  /** scrypt hash of a share password (skipped in a dry run, which writes nothing). */
  hashPassword(plain: string): Promise<string>;
}

/** created_by: CloudPaste's admin becomes the importing admin; `apikey:<id>` stays (key ids are kept). */
export function creator(ctx: ImportContext, createdBy: string | null | undefined): string {
  if (!createdBy || ctx.cloudpasteAdmins.has(createdBy) || !createdBy.startsWith('apikey:')) return ctx.adminId;
  return createdBy;
}

/**
 * A free value for a unique column: `value` itself, or with `on_conflict: rename` the first of
 * `value-2`, `value-3`, … that neither this install nor this import uses. undefined when taken and skipping.
 */
export async function freeValue(
  ctx: ImportContext,
  value: string,
  taken: (candidates: string[]) => Promise<Set<string>>,
  planned: Set<string>,
  make: (base: string, n: number) => string = (base, n) => `${base}-${n}`,
): Promise<string | undefined> {
  const first = await taken([value]);
  if (!first.has(value) && !planned.has(value)) return value;
  if (ctx.onConflict === 'skip') return undefined;
  for (let start = 2; start < 1000; start += 20) {
    const candidates = Array.from({ length: 20 }, (_, i) => make(value, start + i));
    const used = await taken(candidates);
    const free = candidates.find((c) => !used.has(c) && !planned.has(c));
    if (free) return free;
  }
  return undefined;
}
