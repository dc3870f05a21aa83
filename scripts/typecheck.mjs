// `npm run typecheck`: tsc --noEmit in every workspace that has a tsconfig.json.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { root, run } from './lib.mjs';

let failed = false;
for (const workspace of ['contract', 'server', 'web', 'e2e']) {
  if (!existsSync(path.join(root, workspace, 'tsconfig.json'))) continue;
  console.log(`[typecheck] ${workspace}`);
  if ((await run('npx', ['tsc', '-p', workspace, '--noEmit'])) !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
