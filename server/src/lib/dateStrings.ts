// A folder's entries share few distinct modification times (FTP lists minutes, a copied tree one second), and
// formatting a Date was the dearest part of writing an entry (docs/benchmarks.md, storage section). These
// remember the strings of recent times.

const MAX = 4096;
const iso = new Map<number, string>();
const http = new Map<number, string>();

function remembered(memo: Map<number, string>, date: Date, format: (d: Date) => string): string {
  const time = date.getTime();
  let text = memo.get(time);
  if (text === undefined) {
    text = format(date);
    if (memo.size >= MAX) memo.clear();
    memo.set(time, text);
  }
  return text;
}

/** `date.toISOString()`, remembered. */
export function isoString(date: Date): string {
  return remembered(iso, date, (d) => d.toISOString());
}

/** `date.toUTCString()` (the HTTP date form), remembered. */
export function httpDateString(date: Date): string {
  return remembered(http, date, (d) => d.toUTCString());
}
