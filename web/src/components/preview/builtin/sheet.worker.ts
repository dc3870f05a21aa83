// SheetJS parses spreadsheets here and only here: a crafted file that pollutes prototypes pollutes this
// worker's, and the page receives plain arrays of strings (checked again by toSheets).
import { read, utils, type WorkSheet } from 'xlsx';
import type { SheetAnswer, SheetRequest } from './sheetTypes';

function rowsOf(sheet: WorkSheet, maxColumns: number): string[][] {
  const rows = utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: true });
  return rows.map((row) => {
    const out: string[] = [];
    const n = Math.min(Array.isArray(row) ? row.length : 0, maxColumns);
    for (let i = 0; i < n; i++) {
      const cell = (row as unknown[])[i];
      out.push(cell === null || cell === undefined ? '' : String(cell));
    }
    return out;
  });
}

function totalOf(sheet: WorkSheet, shown: number): number {
  const ref = (sheet['!fullref'] as string | undefined) ?? (sheet['!ref'] as string | undefined);
  if (!ref) return shown;
  const range = utils.decode_range(ref);
  return Math.max(shown, range.e.r - range.s.r + 1);
}

/** The worker's global, as far as this file uses it (the DOM lib types `self` as a window). */
const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<SheetRequest>) => void): void;
  postMessage(message: SheetAnswer): void;
};

scope.addEventListener('message', (event) => {
  const { data, format, maxRows, maxColumns, sheet: wanted = 0 } = event.data;
  let answer: SheetAnswer;
  try {
    const options = { sheetRows: maxRows, cellFormula: false, cellHTML: false, cellStyles: false } as const;
    const book =
      format === 'workbook'
        ? read(new Uint8Array(data), { ...options, type: 'array', dense: true, sheets: wanted })
        : read(new TextDecoder().decode(data), {
            ...options,
            type: 'string',
            raw: true,
            ...(format === 'tsv' ? { FS: '\t' } : {}),
          });
    const sheets = book.SheetNames.map((name) => {
      // Only the wanted sheet of a workbook is parsed (a 20 MB book reads in a fraction of the time).
      const sheet = book.Sheets[name];
      if (!sheet) return { name: String(name), rows: [], totalRows: 0, loaded: false };
      const rows = rowsOf(sheet, maxColumns);
      return { name: String(name), rows, totalRows: totalOf(sheet, rows.length), loaded: true };
    });
    answer = { ok: true, sheets };
  } catch (error) {
    answer = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  scope.postMessage(answer);
});
