export interface SortState {
  column: number;
  descending: boolean;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Row indexes ordered by one column: numbers as numbers, text by the locale, empty cells last. */
export function sortedOrder(rows: readonly (readonly string[])[], sort: SortState | null): number[] {
  const order = rows.map((_, i) => i);
  if (!sort) return order;
  const { column, descending } = sort;
  const keyOf = (i: number) => (rows[i]?.[column] ?? '').trim();
  order.sort((a, b) => {
    const x = keyOf(a);
    const y = keyOf(b);
    if (x === '' || y === '') return x === y ? a - b : x === '' ? 1 : -1;
    const nx = Number(x);
    const ny = Number(y);
    const byValue = Number.isFinite(nx) && Number.isFinite(ny) ? nx - ny : collator.compare(x, y);
    return (descending ? -byValue : byValue) || a - b;
  });
  return order;
}

/** A, B, … Z, AA, AB …: a spreadsheet's column name. */
export function columnName(index: number): string {
  let name = '';
  let n = index + 1;
  while (n > 0) {
    const rest = (n - 1) % 26;
    name = String.fromCharCode(65 + rest) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}
