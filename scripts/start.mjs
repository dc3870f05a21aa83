// `npm start`: build what is missing, then serve API + web app on HOST:PORT (default 127.0.0.1:8787).
import { ensureWebBuilt, run } from './lib.mjs';
import { buildServerBundle, serverEnv, serverNodeFlags } from './server-bundle.mjs';

const built = await ensureWebBuilt();
if (built !== 0) {
  console.error('[clipnest] the web app build failed; see the output above.');
  process.exit(built);
}
const bundle = await buildServerBundle().catch((error) => {
  console.error(`[clipnest] the server build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
process.exit(await run(process.execPath, [...serverNodeFlags, bundle], { env: { ...serverEnv, ...process.env } }));
