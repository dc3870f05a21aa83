import { AppError } from '../../../errors.js';

/**
 * A 400 naming the table, the row (1-based, with its id) and the problem; nothing is written.
 * `input` true: the problem is in the request's own field (`local_roots`), not in the backup.
 */
export function badRow(table: string, index: number, id: unknown, problem: string, input = false): AppError {
  if (input) {
    return AppError.validation(`not imported, nothing was changed: ${table}["${String(id)}"] ${problem}`, [
      { path: `${table}.${String(id)}`, message: problem },
    ]);
  }
  return AppError.validation(
    `not imported, nothing was changed: table ${table}, row ${index + 1} (${JSON.stringify(id)}): ${problem}`,
    [{ path: `backup.data.${table}.${index}`, message: problem }],
  );
}
