import {
  BACKUP_FORMAT,
  BACKUP_MODULES,
  BACKUP_VERSION,
  backupFileSchema,
  type BackupFile,
  type BackupModule,
  type BackupModuleInfo,
  type RestoreMode,
  type RestorePreview,
  type RestoreResult,
  type RestoreTablePlan,
} from '@clipnest/contract';
import { DEFAULT_BACKUP_MAX_BYTES } from '../../../config.js';
import { AppError } from '../../../errors.js';
import { isoNow, type Clock } from '../../../lib/clock.js';
import type { BackupRepository, Row } from '../../../repositories/backupRepository.js';
import type { StorageEndpointGuard } from '../../../net/storageEndpointGuard.js';
import { SecretCipher } from '../../../security/cipher.js';
import { sha256Hex } from '../../../security/secrets.js';
import { MODULE_TABLES, TABLE_ORDER } from './backupModules.js';
import { apiKeyValueProblem, FOREIGN_KEYS, rowProblem } from './backupRowRules.js';

export interface BackupServiceDeps {
  backups: BackupRepository;
  cipher: SecretCipher;
  encryptionKey: string;
  appVersion: string;
  schemaVersion: string;
  clock: Clock;
  /** Writes what services hold in memory (buffered view counts) so a backup or restore sees every row as it is. */
  settleWrites?: () => Promise<void>;
  /** BACKUP_MAX_BYTES: the largest backup body preview/restore read (default DEFAULT_BACKUP_MAX_BYTES). */
  maxBytes?: number;
  /** The server's storage endpoint guard: a restored storage config passes it as one the API saves. */
  endpointGuard?: Pick<StorageEndpointGuard, 'endpointBlocked'>;
}

/** Columns named `*_encrypted` hold AES-GCM secrets; a restore from another install re-encrypts them. */
const ENCRYPTED_COLUMN = /_encrypted$/;

function fingerprint(key: string): string {
  return sha256Hex(`clipnest-backup:${key}`).slice(0, 16);
}

function byTableOrder(a: string, b: string): number {
  return TABLE_ORDER.indexOf(a) - TABLE_ORDER.indexOf(b);
}

function moduleOf(table: string): string {
  return Object.entries(MODULE_TABLES).find(([, entries]) => entries.some((e) => e.table === table))?.[0] ?? '?';
}

/** A 400 naming the module, table, row (1-based, with its key) and field of a bad row. */
function badRow(module: string, table: string, index: number, key: unknown, problem: string): AppError {
  const field = problem.split(':')[0] ?? '';
  return AppError.validation(
    `invalid backup file: module ${module}, table ${table}, row ${index + 1} (${JSON.stringify(key ?? null)}): ${problem}; nothing was restored`,
    [{ path: `backup.tables.${table}.rows.${index}.${field}`, message: problem.slice(field.length + 1).trim() }],
  );
}

interface Plan {
  file: BackupFile;
  mode: RestoreMode;
  tables: { table: string; key: string; rows: Row[] }[];
  preview: RestorePreview;
}

export class BackupService {
  /** Bodies of /preview and /restore larger than this answer 413 before they are read. */
  readonly maxBytes: number;

  constructor(private readonly deps: BackupServiceDeps) {
    this.maxBytes = deps.maxBytes ?? DEFAULT_BACKUP_MAX_BYTES;
  }

  /** The module's tables that exist in this install, in insert order. */
  private async presentTables(modules: readonly BackupModule[]) {
    const columns = await this.deps.backups.columns();
    return modules
      .flatMap((module) => MODULE_TABLES[module].map((entry) => ({ ...entry, module })))
      .filter(({ table }) => columns.has(table))
      .sort((a, b) => byTableOrder(a.table, b.table))
      .map((entry) => ({ ...entry, columns: columns.get(entry.table) ?? [] }));
  }

  async modules(): Promise<BackupModuleInfo[]> {
    const columns = await this.deps.backups.columns();
    const result: BackupModuleInfo[] = [];
    for (const name of BACKUP_MODULES) {
      const tables = [];
      for (const { table } of MODULE_TABLES[name]) {
        if (columns.has(table)) tables.push({ name: table, rows: await this.deps.backups.count(table) });
      }
      result.push({ name, tables });
    }
    return result;
  }

  async create(modules: readonly BackupModule[]): Promise<BackupFile> {
    const unique = BACKUP_MODULES.filter((m) => modules.includes(m));
    if (unique.length === 0) throw AppError.validation('choose at least one module to back up');
    await this.deps.settleWrites?.();
    const tables: BackupFile['tables'] = {};
    for (const { table, key } of await this.presentTables(unique)) {
      tables[table] = { rows: await this.deps.backups.dump(table, key) };
    }
    return {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      app_version: this.deps.appVersion,
      schema_version: this.deps.schemaVersion,
      created_at: isoNow(this.deps.clock),
      encryption_key_fingerprint: fingerprint(this.deps.encryptionKey),
      modules: [...unique],
      tables,
    };
  }

  /** Checks a backup file against this install and works out what a restore would do. Throws 400 on any flaw. */
  private async plan(raw: unknown, mode: RestoreMode, sourceKey: string | undefined): Promise<Plan> {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw AppError.validation('the backup must be a JSON object made by Clipnest');
    }
    const version = (raw as { version?: unknown }).version;
    if ((raw as { format?: unknown }).format === BACKUP_FORMAT && version !== BACKUP_VERSION) {
      throw AppError.validation(
        `unsupported backup version ${JSON.stringify(version)}: this install reads version ${BACKUP_VERSION}`,
      );
    }
    const parsed = backupFileSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      throw AppError.validation(`invalid backup file${where}: ${issue?.message ?? 'unreadable'}`);
    }
    const file = parsed.data;
    if (file.schema_version > this.deps.schemaVersion) {
      throw AppError.validation(
        `this backup comes from a newer Clipnest (database ${file.schema_version}); upgrade this install first`,
      );
    }
    const keyMatches = file.encryption_key_fingerprint === fingerprint(this.deps.encryptionKey);
    if (sourceKey !== undefined && fingerprint(sourceKey) !== file.encryption_key_fingerprint) {
      throw AppError.validation('source_encryption_key is not the key this backup was made with');
    }
    const warnings: string[] = [];
    const tables: Plan['tables'] = [];
    const planRows: RestoreTablePlan[] = [];
    for (const { table, key, columns, module } of await this.presentTables(file.modules)) {
      const entry = file.tables[table];
      if (!entry) throw AppError.validation(`invalid backup file: the table "${table}" of its modules is missing`);
      const known = new Set(columns);
      entry.rows.forEach((row, index) => {
        const unknown = Object.keys(row).filter((column) => !known.has(column));
        if (unknown.length > 0) {
          throw AppError.validation(
            `invalid backup file: ${table} row ${index + 1} has unknown column(s) ${unknown.join(', ')}`,
          );
        }
        const id = row[key];
        if (typeof id !== 'string' && typeof id !== 'number') {
          throw AppError.validation(`invalid backup file: ${table} row ${index + 1} has no ${key}`);
        }
        const problem = rowProblem(table, row, this.deps.endpointGuard);
        if (problem) throw badRow(module, table, index, row[key], problem);
      });
      const rows = this.reencrypt(table, entry.rows, keyMatches, sourceKey, warnings);
      if (table === 'api_keys' && (keyMatches || sourceKey !== undefined)) this.checkKeyValues(rows, module);
      const ids = rows.map((row) => row[key] as string | number);
      const existingKeys = await this.deps.backups.existingKeys(table, key, ids);
      tables.push({ table, key, rows });
      planRows.push({
        table,
        incoming: rows.length,
        existing: await this.deps.backups.count(table),
        conflicts: ids.filter((id) => existingKeys.has(String(id))).length,
      });
    }
    await this.checkReferences(tables, mode);
    if (mode === 'overwrite' && file.modules.includes('account_management')) {
      warnings.push(
        'the admin account will be replaced: you will be logged out; two-factor sign-in and passkeys are not in backups, so the restored account signs in with its password alone until they are set up again',
      );
    }
    return {
      file,
      mode,
      tables,
      preview: {
        mode,
        modules: file.modules,
        tables: planRows,
        created_at: file.created_at,
        app_version: file.app_version,
        encryption_key_matches: keyMatches,
        warnings,
      },
    };
  }

  /**
   * Every cross-module reference (a file's storage config, a mount's) must name a row that exists
   * after the restore: in the backup, or already here unless an overwrite clears that table.
   */
  private async checkReferences(tables: Plan['tables'], mode: RestoreMode): Promise<void> {
    const byTable = new Map(tables.map((entry) => [entry.table, entry]));
    for (const { table, column, references } of FOREIGN_KEYS) {
      const entry = byTable.get(table);
      if (!entry) continue;
      const restored = byTable.get(references.table);
      const inBackup = new Set(restored?.rows.map((row) => String(row[references.key])) ?? []);
      const wanted = [...new Set(entry.rows.map((row) => row[column]).filter((v) => v !== null && v !== undefined))];
      const missing = wanted.filter((v) => !inBackup.has(String(v)));
      const kept =
        mode === 'overwrite' && restored
          ? new Set<string>()
          : await this.deps.backups.existingKeys(references.table, references.key, missing as (string | number)[]);
      const index = entry.rows.findIndex((row) => {
        const value = row[column];
        return value !== null && value !== undefined && !inBackup.has(String(value)) && !kept.has(String(value));
      });
      if (index >= 0) {
        const row = entry.rows[index] as Row;
        throw badRow(
          moduleOf(table),
          table,
          index,
          row[entry.key],
          `${column}: names ${references.table} ${JSON.stringify(row[column])}, which is neither in the backup nor here`,
        );
      }
    }
  }

  /**
   * Restored keys keep the API's minimum strength: a key value this install can read (same ENCRYPTION_KEY,
   * or re-encrypted from source_encryption_key) must be one POST /api/admin/api-keys would accept.
   */
  private checkKeyValues(rows: Row[], module: string): void {
    rows.forEach((row, index) => {
      const encrypted = row.key_encrypted;
      if (typeof encrypted !== 'string' || encrypted === '') return;
      let plain: string;
      try {
        plain = this.deps.cipher.decrypt(encrypted);
      } catch {
        return; // unreadable here: the key cannot be shown, and it still needs its value to log in
      }
      const problem = apiKeyValueProblem(plain);
      if (problem) throw badRow(module, 'api_keys', index, row.id, `key_encrypted: ${problem}`);
    });
  }

  private reencrypt(
    table: string,
    rows: Row[],
    keyMatches: boolean,
    sourceKey: string | undefined,
    warnings: string[],
  ): Row[] {
    const columns = Object.keys(rows[0] ?? {}).filter((c) => ENCRYPTED_COLUMN.test(c));
    if (keyMatches || columns.length === 0) return rows;
    if (sourceKey === undefined) {
      warnings.push(
        `${table}: secrets were encrypted with another ENCRYPTION_KEY; give source_encryption_key to keep them, or enter them again after the restore`,
      );
      return rows;
    }
    const source = new SecretCipher(sourceKey);
    return rows.map((row) => {
      const copy = { ...row };
      for (const column of columns) {
        const value = copy[column];
        if (typeof value === 'string' && value) copy[column] = this.deps.cipher.encrypt(source.decrypt(value));
      }
      return copy;
    });
  }

  async preview(raw: unknown, mode: RestoreMode, sourceKey?: string): Promise<RestorePreview> {
    return (await this.plan(raw, mode, sourceKey)).preview;
  }

  async restore(raw: unknown, mode: RestoreMode, sourceKey?: string): Promise<RestoreResult> {
    const plan = await this.plan(raw, mode, sourceKey);
    await this.deps.settleWrites?.();
    const restored: Record<string, number> = {};
    try {
      await this.deps.backups.transaction(async (writer) => {
        if (mode === 'overwrite') {
          for (const { table } of [...plan.tables].reverse()) await writer.clear(table);
        }
        for (const { table, rows } of plan.tables) {
          restored[table] = await writer.insert(table, rows, mode === 'merge');
        }
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw AppError.validation(`the backup could not be restored, nothing was changed: ${reason}`);
    }
    return { ...plan.preview, restored };
  }
}
