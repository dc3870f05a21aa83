// `npm run bench -w bench -- <name>`: runs bench/<name>.bench.mjs (all of them without a name).
// Heavy opt-in scenarios (bench/<name>.scenario.mjs) run only when named.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// Arguments from the first `--flag` on are the named bench's own (e.g. `storage --size 256M`).
const args = process.argv.slice(2);
const firstFlag = args.findIndex((a) => a.startsWith('--'));
const wanted = firstFlag < 0 ? args : args.slice(0, firstFlag);
const files = readdirSync(here);
const named = (suffix) => files.filter((f) => f.endsWith(suffix)).map((f) => f.slice(0, -suffix.length));
const benches = named('.bench.mjs');
const scenarios = named('.scenario.mjs');
const names = wanted.length ? wanted : benches;
for (const name of names) {
  const file = benches.includes(name)
    ? `${name}.bench.mjs`
    : scenarios.includes(name)
      ? `${name}.scenario.mjs`
      : undefined;
  if (!file) {
    console.error(
      `no benchmark "${name}"; have: ${benches.join(', ') || 'none'} (opt-in scenarios: ${scenarios.join(', ') || 'none'})`,
    );
    process.exit(1);
  }
  console.log(`\n== ${file.endsWith('.bench.mjs') ? 'bench' : 'scenario'} ${name}`);
  await import(pathToFileURL(path.join(here, file)).href);
}
