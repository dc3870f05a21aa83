/** What the built-in renderers show, by extension. */
export type BuiltinFormat = 'docx' | 'workbook' | 'csv' | 'tsv' | 'pptx';

const FORMATS: Record<string, BuiltinFormat> = {
  docx: 'docx',
  docm: 'docx',
  xlsx: 'workbook',
  xlsm: 'workbook',
  xls: 'workbook',
  ods: 'workbook',
  csv: 'csv',
  tsv: 'tsv',
  pptx: 'pptx',
  pptm: 'pptx',
};

export function builtinFormatOf(name: string): BuiltinFormat | null {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? null : (FORMATS[name.slice(dot + 1).toLowerCase()] ?? null);
}

/** Files above this are not read into the page: the download is offered instead. */
export const BUILTIN_MAX_BYTES = 64 * 1024 * 1024;
/** Rows read from a workbook's sheet, and from a CSV (the table is virtualised). */
export const WORKBOOK_ROWS = 1000;
export const CSV_ROWS = 100_000;
export const MAX_COLUMNS = 256;
/**
 * Body blocks (paragraphs, tables) of a .docx laid out in the preview: a few dozen pages of ordinary
 * text. Layout is what is slow on a large document (47 s for all of a 15 MB one, see docs/benchmarks.md).
 */
export const DOCX_BLOCKS = 300;
