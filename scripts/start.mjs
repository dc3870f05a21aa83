// `npm start`: build what is missing, then serve API + web app on HOST:PORT (default 127.0.0.1:8787).
import { ensureWebBuilt, run } from './lib.mjs';

const built = await ensureWebBuilt();
if (built !== 0) {
  console.error('[clipnest] the web app build failed; see the output above.');
  process.exit(built);
}
process.exit(await run(process.execPath, ['--import', 'tsx', 'server/src/main.ts']));
