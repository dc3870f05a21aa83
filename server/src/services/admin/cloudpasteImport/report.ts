import {
  CLOUDPASTE_IMPORT_KINDS,
  type CloudpasteImportKind,
  type CloudpasteImportKindReport,
  type CloudpasteImportReport,
  type CloudpasteLocalRoot,
} from '@clipnest/contract';
import type { CloudpasteMetadata } from './backupFile.js';

/** Collects the report while the plan is made: what each row becomes, and why when it is left out. */
export class ReportBuilder {
  readonly kinds: Record<CloudpasteImportKind, CloudpasteImportKindReport>;
  readonly warnings: string[] = [];
  readonly localRoots: CloudpasteLocalRoot[] = [];
  readonly ignoredTables: CloudpasteImportReport['ignored_tables'] = [];

  constructor() {
    this.kinds = Object.fromEntries(
      CLOUDPASTE_IMPORT_KINDS.map((kind) => [
        kind,
        { total: 0, created: 0, created_items: [], skipped: [], not_supported: [] },
      ]),
    ) as unknown as Record<CloudpasteImportKind, CloudpasteImportKindReport>;
  }

  total(kind: CloudpasteImportKind, n: number): void {
    this.kinds[kind].total += n;
  }

  created(kind: CloudpasteImportKind, id: string, name: string, reason?: string): void {
    this.kinds[kind].created += 1;
    this.kinds[kind].created_items.push({ id, name, ...(reason && { reason }) });
  }

  skipped(kind: CloudpasteImportKind, id: string, name: string, reason: string): void {
    this.kinds[kind].skipped.push({ id, name, reason });
  }

  notSupported(kind: CloudpasteImportKind, id: string, name: string, reason: string): void {
    this.kinds[kind].not_supported.push({ id, name, reason });
  }

  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  ignore(table: string, rows: number, reason: string): void {
    this.ignoredTables.push({ table, rows, reason });
  }

  build(metadata: CloudpasteMetadata, dryRun: boolean): CloudpasteImportReport {
    return {
      dry_run: dryRun,
      source: {
        version: metadata.version,
        schema_version: metadata.schema_version,
        backup_type: metadata.backup_type,
        timestamp: metadata.timestamp,
        total_records: metadata.total_records,
      },
      kinds: this.kinds,
      local_roots: this.localRoots,
      ignored_tables: this.ignoredTables,
      warnings: this.warnings,
    };
  }
}
