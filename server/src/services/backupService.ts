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
import { AppError } from '../errors.js';
import { isoNow, type Clock } from '../lib/clock.js';
import type { BackupRepository, Row } from '../repositories/backupRepository.js';
import { SecretCipher } from '../security/cipher.js';
import { sha256Hex } from '../security/secrets.js';
import { MODULE_TABLES, TABLE_ORDER } from './backupModules.js';

export interface BackupServiceDeps {
  backups: BackupRepository;
  cipher: SecretCipher;
  encryptionKey: string;
  appVersion: string;
  schemaVersion: string;
  clock: Clock;
  /** Writes what services hold in memory (buffered view counts) so a backup or restore sees every row as it is. */
  settleWrites?: () => Promise<void>;
}

/** Columns named `*_encrypted` hold AES-GCM secrets; a restore from another install re-encrypts them. */
const ENCRYPTED_COLUMN = /_encrypted$/;

function fingerprint(key: string): string {
  return sha256Hex(`clipnest-backup:${key}`).slice(0, 16);
}

function byTableOrder(a: string, b: string): number {
  return TABLE_ORDER.indexOf(a) - TABLE_ORDER.indexOf(b);
}

interface Plan {
  file: BackupFile;
  mode: RestoreMode;
  tables: { table: string; key: string; rows: Row[] }[];
  preview: RestorePreview;
}

export class BackupService {
  constructor(private readonly deps: BackupServiceDeps) {}

  /** The module's tables that exist in this install, in insert order. */
  private async presentTables(modules: readonly BackupModule[]) {
    const columns = await this.deps.backups.columns();
    return modules
      .flatMap((module) => MODULE_TABLES[module])
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
    for (const { table, key, columns } of await this.presentTables(file.modules)) {
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
      });
      const rows = this.reencrypt(table, entry.rows, keyMatches, sourceKey, warnings);
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
    if (mode === 'overwrite' && file.modules.includes('account_management')) {
      warnings.push('the admin account will be replaced: you will be logged out');
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
