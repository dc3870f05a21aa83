// `npm run bench -w bench -- <name>`: runs bench/<name>.bench.mjs (all of them without a name).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const all = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .map((f) => f.replace(/\.bench\.mjs$/, ''));
const names = wanted.length ? wanted : all;
for (const name of names) {
  if (!all.includes(name)) {
    console.error(`no benchmark "${name}"; have: ${all.join(', ') || 'none'}`);
    process.exit(1);
  }
  console.log(`\n== bench ${name}`);
  await import(pathToFileURL(path.join(here, `${name}.bench.mjs`)).href);
}
