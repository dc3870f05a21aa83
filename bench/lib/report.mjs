// Writes one benchmark's section into docs/benchmarks.md between its own markers, leaving the others.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './server.mjs';

const file = path.join(repoRoot, 'docs', 'benchmarks.md');
const HEADER = `# Benchmarks

Each section is written by \`npm run bench -w bench -- <name>\`; its baseline is measured in the same
run on the same machine, so the ratio matters more than the absolute numbers.
`;

export function machineLine() {
  return `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/** Replaces (or appends) the section `name` with `markdown`. */
export function writeSection(name, markdown) {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : HEADER;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  doc =
    from >= 0 && to > from ? doc.slice(0, from) + block + doc.slice(to + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, doc);
}
