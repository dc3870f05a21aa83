// SQLite commits each statement outside a transaction on its own: the WAL frames of every page it touched (the
// table, each index, the counter rows its triggers update) are written per row. Inserts that arrive together
// (requests parsed in the same turn of the event loop) are written in one transaction instead, one commit for
// all (docs/benchmarks.md, Paste creation). Each caller still gets its own outcome.
import type { Kysely, Transaction } from 'kysely';
import { writeAtTurnEnd } from '../lib/turnEnd.js';
import { isUniqueViolation } from './errors.js';

interface Pending<Row> {
  row: Row;
  resolve: () => void;
  reject: (error: unknown) => void;
  failed?: unknown;
}

/** The most rows one transaction takes; more wait for the next one. */
const MAX_BATCH = 256;

export class GroupedInserts<DB, Row> {
  private queue: Pending<Row>[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly insertOne: (trx: Transaction<DB>, row: Row) => Promise<unknown>,
  ) {}

  /** Resolves once the row is committed; rejects with the row's own error (e.g. a unique violation). */
  insert(row: Row): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        writeAtTurnEnd(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, MAX_BATCH);
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const item of batch) {
          try {
            await this.insertOne(trx, item.row);
          } catch (error) {
            // SQLite undoes only the refused statement: the others stay in the transaction. Any other error
            // ends the transaction, and every row of the batch fails with it.
            if (!isUniqueViolation(error)) throw error;
            item.failed = error;
          }
        }
      });
      for (const item of batch) {
        if (item.failed === undefined) item.resolve();
        else item.reject(item.failed);
      }
    } catch (error) {
      for (const item of batch) item.reject(error);
    } finally {
      if (this.queue.length > 0) writeAtTurnEnd(() => void this.flush());
      else this.scheduled = false;
    }
  }
}
