/** What the sheet worker answers: plain strings only, rebuilt on this side (see toSheets). */
export interface SheetData {
  name: string;
  /** The first rows (the header row included), each a list of cell texts. */
  rows: string[][];
  /** The sheet's rows in all, as its range says (may exceed rows.length). */
  totalRows: number;
  /** False for a workbook's other sheets until their tab is opened (only one sheet is parsed at a time). */
  loaded: boolean;
}

export interface SheetRequest {
  data: ArrayBuffer;
  /** `csv` and `tsv` are read as text; anything else as a workbook. */
  format: 'csv' | 'tsv' | 'workbook';
  maxRows: number;
  maxColumns: number;
  /** For a workbook: the sheet to parse (by position); the others answer with their names only. */
  sheet?: number;
}

export type SheetAnswer = { ok: true; sheets: unknown } | { ok: false; error: string };

/**
 * The worker's answer checked and copied into fresh arrays of strings: whatever a crafted file did to
 * the worker's prototypes stays there, and only the shape below crosses into the page.
 */
export function toSheets(value: unknown): SheetData[] {
  if (!Array.isArray(value)) throw new Error('bad sheet answer');
  return value.map((sheet: unknown) => {
    const { name, rows, totalRows, loaded } = (sheet ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || !Array.isArray(rows) || typeof totalRows !== 'number') {
      throw new Error('bad sheet answer');
    }
    return {
      name: String(name),
      loaded: loaded !== false,
      totalRows: Number.isFinite(totalRows) ? Math.max(0, Math.floor(totalRows)) : rows.length,
      rows: rows.map((row: unknown) =>
        Array.isArray(row) ? row.map((cell: unknown) => (typeof cell === 'string' ? cell : '')) : [],
      ),
    };
  });
}
